// What assembled jpeg and png files (dataset.content.encoding: assembled) share, tested over both
// writers: files differ from each other and are the same for the same seed and file whatever the
// writer's pools hold (built for another seed, other sizes or widths written before, a new
// writer) or whatever other threads write through the same writer at the same time.
#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

#include "format_files_fixture.h"
#include "format_test_support.h"
#include "formats/image/jpeg_reader.h"
#include "formats/image/jpeg_writer.h"
#include "formats/image/png_assembly.h"
#include "formats/image/png_reader.h"
#include "formats/image/png_writer.h"

namespace dlbench::formats {
namespace {

template <typename Writer>
struct Assembled;
template <>
struct Assembled<JpegWriter> {
  using Reader = JpegReader;
  static constexpr const char* kExtension = ".jpeg";
};
template <>
struct Assembled<PngWriter> {
  using Reader = PngReader;
  static constexpr const char* kExtension = ".png";
};

template <typename Writer>
class AssembledImageFiles : public test::FormatFiles<typename Assembled<Writer>::Reader> {
 protected:
  AssembledImageFiles()
      : test::FormatFiles<typename Assembled<Writer>::Reader>(
            std::string("img_0_of_1") + Assembled<Writer>::kExtension, 3) {}

  FileSpec spec(const std::string& name, std::vector<std::int64_t> dims, FileIndex file) const {
    return test::AssembledSpec(this->path(name + Assembled<Writer>::kExtension), std::move(dims),
                               file);
  }
  // Writes file `file` of `dims` through `writer` and returns its bytes.
  std::string write(const Writer& writer, const dataset::ContentGenerator& content, FileIndex file,
                    std::vector<std::int64_t> dims) const {
    const FileSpec s = spec("f", std::move(dims), file);
    test::WriteFile(writer, s, content);
    return test::ReadAll(s.path);
  }
};

using Writers = ::testing::Types<JpegWriter, PngWriter>;
TYPED_TEST_SUITE(AssembledImageFiles, Writers);

TYPED_TEST(AssembledImageFiles, FilesDifferAndTheSameSeedAndFileGiveTheSameBytes) {
  const auto content = test::RandomContent();
  const dataset::ContentGenerator other_seed(config::ContentKind::kRandom, 2.0, 99);
  const TypeParam writer;
  const std::string file3 = this->write(writer, content, 3, {568, 568});
  EXPECT_NE(this->write(writer, content, 4, {568, 568}), file3);
  EXPECT_NE(this->write(writer, other_seed, 3, {568, 568}), file3);
  // A one-pixel image differs too (its COM marker or tEXt chunk holds the file's content).
  EXPECT_NE(this->write(writer, content, 8, {1, 1}), this->write(writer, content, 9, {1, 1}));
  // The writer's pools (built for other_seed last) do not change a file: a new writer, and the
  // first writer again, write the same bytes.
  EXPECT_EQ(this->write(TypeParam(), content, 3, {568, 568}), file3);
  EXPECT_EQ(this->write(writer, content, 3, {568, 568}), file3);
  // Nor do other sizes written before through the same pools: jpeg tail pools built on first
  // use, more png widths than the writer keeps pools for (the first one's are rebuilt).
  const std::string odd = this->write(TypeParam(), content, 5, {37, 300});
  for (std::int64_t width = 1; width <= static_cast<std::int64_t>(kPngCachedWidths) + 2; ++width) {
    this->write(writer, content, 6, {11, width});
  }
  this->write(writer, content, 7, {7, 13});
  EXPECT_EQ(this->write(writer, content, 5, {37, 300}), odd);
  EXPECT_EQ(this->write(writer, content, 3, {568, 568}), file3);
}

TYPED_TEST(AssembledImageFiles, ThreadsSharingAWriterWriteWhatOneThreadWrites) {
  const auto content = test::RandomContent();
  const std::vector<std::vector<std::int64_t>> shapes = {{37, 300}, {64, 64}, {100, 7}, {3, 3}};
  auto spec_of = [&](int thread, std::size_t i) {
    return this->spec("t" + std::to_string(thread) + "_" + std::to_string(i), shapes[i],
                      10 * static_cast<FileIndex>(i) + static_cast<FileIndex>(thread));
  };
  const TypeParam shared;
  std::vector<std::thread> threads;
  for (int t = 0; t < 2; ++t) {
    threads.emplace_back([&, t] {
      for (std::size_t i = 0; i < shapes.size(); ++i) {
        test::WriteFile(shared, spec_of(t, i), content);
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (int t = 0; t < 2; ++t) {
    for (std::size_t i = 0; i < shapes.size(); ++i) {
      const FileSpec spec = spec_of(t, i);
      FileSpec alone = spec;
      alone.path = this->path(std::string("alone") + Assembled<TypeParam>::kExtension);
      test::WriteFile(TypeParam(), alone, content);
      EXPECT_EQ(test::ReadAll(alone.path), test::ReadAll(spec.path)) << spec.path;
    }
  }
}

}  // namespace
}  // namespace dlbench::formats
