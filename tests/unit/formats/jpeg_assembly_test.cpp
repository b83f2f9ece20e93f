// Assembled jpeg files (dataset.content.encoding: assembled): every size decodes with
// libjpeg-turbo (dlbench's reader, which takes libjpeg's warnings — data past the last block, a
// scan ending early — as errors) to an image of that size full of noise; files differ from each
// other and are the same for the same seed and file whatever else the writer wrote before or at
// the same time.
#include "formats/jpeg_assembly.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <thread>
#include <vector>

#include "format_files_fixture.h"
#include "format_test_support.h"
#include "formats/jpeg_reader.h"
#include "formats/jpeg_writer.h"
#include "storage/file.h"

namespace dlbench::formats {
namespace {

// Full intervals only, intervals and a last short one, a single block, one pixel, one row, one
// column (a one-dimensional sample), sides that are not multiples of 8, retinanet's image, and
// more intervals than the pool holds (repeats).
const std::vector<std::vector<std::int64_t>> kAssembledShapes = {
    {64, 32},  {37, 300}, {8, 8},  {1, 1},     {1, 1000},
    {1000, 1}, {9},       {7, 13}, {568, 568}, {1100, 1024}};

class AssembledJpegFiles : public test::FormatFiles<JpegReader> {
 protected:
  AssembledJpegFiles() : FormatFiles("img_0_of_1.jpeg", 3) {}
};

TEST_F(AssembledJpegFiles, EverySizeDecodesToNoiseOfThatSize) {
  const JpegWriter writer;
  for (const auto& dims : kAssembledShapes) {
    FileSpec spec = make_spec(dims, 1);
    spec.encoding = config::ContentEncoding::kAssembled;
    const WriteResult written = test::WriteFile(writer, spec, test::RandomContent());
    const std::string bytes = test::ReadAll(spec.path);
    EXPECT_EQ(written.data_bytes, bytes.size());
    EXPECT_EQ(bytes.substr(0, 2), "\xFF\xD8");
    EXPECT_EQ(bytes.substr(bytes.size() - 2), "\xFF\xD9");
    std::vector<std::byte> pixels;
    ASSERT_NO_THROW(pixels = FirstSample(spec)) << dims[0];  // the reader checks height and width
    if (pixels.size() < 4096) continue;
    double sum = 0;
    double squares = 0;
    for (const std::byte b : pixels) {
      sum += static_cast<double>(b);
      squares += static_cast<double>(b) * static_cast<double>(b);
    }
    const double n = static_cast<double>(pixels.size());
    const double mean = sum / n;
    EXPECT_NEAR(mean, 127.5, 3.0) << dims[0];
    // Uniform noise has a deviation of 74; quality 75 keeps most of it.
    EXPECT_GT(std::sqrt(squares / n - mean * mean), 60.0) << dims[0];
  }
}

TEST_F(AssembledJpegFiles, AboutAsLargeAsTheImageEncodedPerFile) {
  const auto content = test::RandomContent();
  FileSpec spec = make_spec({568, 568}, 1);
  const Bytes per_file = test::WriteFile(JpegWriter(), spec, content).data_bytes;
  spec.encoding = config::ContentEncoding::kAssembled;
  const Bytes assembled = test::WriteFile(JpegWriter(), spec, content).data_bytes;
  EXPECT_NEAR(static_cast<double>(assembled) / static_cast<double>(per_file), 1.0, 0.02);
}

TEST_F(AssembledJpegFiles, FilesDifferAndTheSameSeedAndFileGiveTheSameBytes) {
  const auto content = test::RandomContent();
  const dataset::ContentGenerator other_seed(config::ContentKind::kRandom, 2.0, 99);
  const JpegWriter writer;
  auto write = [&](const JpegWriter& w, const dataset::ContentGenerator& c, FileIndex file,
                   std::vector<std::int64_t> dims) {
    const FileSpec spec = test::AssembledSpec(path("f.jpeg"), std::move(dims), file);
    test::WriteFile(w, spec, c);
    return test::ReadAll(spec.path);
  };
  const std::string file3 = write(writer, content, 3, {568, 568});
  EXPECT_NE(write(writer, content, 4, {568, 568}), file3);
  EXPECT_NE(write(writer, other_seed, 3, {568, 568}), file3);
  // A one-block image differs too (its COM marker holds the file's content).
  EXPECT_NE(write(writer, content, 8, {8, 8}), write(writer, content, 9, {8, 8}));
  // The writer's pools (built for other_seed last) do not change a file: a new writer, and the
  // first writer again, write the same bytes.
  EXPECT_EQ(write(JpegWriter(), content, 3, {568, 568}), file3);
  EXPECT_EQ(write(writer, content, 3, {568, 568}), file3);
  // Nor do other sizes written before through the same pools (the tail pools are built lazily).
  const std::string odd = write(JpegWriter(), content, 5, {37, 300});
  write(writer, content, 6, {7, 13});
  write(writer, content, 7, {1, 1});
  EXPECT_EQ(write(writer, content, 5, {37, 300}), odd);
}

TEST_F(AssembledJpegFiles, ThreadsSharingAWriterWriteWhatOneThreadWrites) {
  const auto content = test::RandomContent();
  const std::vector<std::vector<std::int64_t>> shapes = {{37, 300}, {64, 64}, {100, 7}, {3, 3}};
  auto spec_of = [&](int thread, std::size_t i) {
    return test::AssembledSpec(
        path("t" + std::to_string(thread) + "_" + std::to_string(i) + ".jpeg"), shapes[i],
        10 * static_cast<FileIndex>(i) + static_cast<FileIndex>(thread));
  };
  const JpegWriter shared;
  std::vector<std::thread> threads;
  for (int t = 0; t < 2; ++t) {
    threads.emplace_back([&, t] {
      for (std::size_t i = 0; i < shapes.size(); ++i)
        test::WriteFile(shared, spec_of(t, i), content);
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (int t = 0; t < 2; ++t) {
    for (std::size_t i = 0; i < shapes.size(); ++i) {
      const FileSpec spec = spec_of(t, i);
      const std::string bytes = test::ReadAll(spec.path);
      FileSpec alone = spec;
      alone.path = path("alone.jpeg");
      test::WriteFile(JpegWriter(), alone, content);
      EXPECT_EQ(test::ReadAll(alone.path), bytes) << spec.path;
    }
  }
}

TEST(JpegPools, HasNoTailPoolOfAWholeSegment) {
  JpegPools pools(test::RandomContent());
  dlbench::test::ExpectError([&] { pools.tail(kJpegSegmentBlocks); }, ExitCode::kInternal,
                             {"no tail pool of 32 blocks"});
}

}  // namespace
}  // namespace dlbench::formats
