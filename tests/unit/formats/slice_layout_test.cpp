// The layouts that the whole-file writers and the shared-file writer share: the ranges of the
// ranks' slices tile every part, and the bytes streamed slice by slice, placed at their ranges,
// are the file the whole-file writer makes.
#include "formats/io/slice_layout.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "format_test_support.h"
#include "formats/indexed/indexed_binary_writer.h"
#include "formats/numpy/npy_writer.h"
#include "formats/tfrecord/tfrecord_writer.h"
#include "support/test_support.h"

namespace dlbench::formats {
namespace {

// Collects streamed bytes in memory, through a buffer of a few bytes (many flushes).
class StringSink final : public ByteSink {
 public:
  StringSink() : ByteSink(buffer_) {}
  std::string bytes;

 private:
  void write_out(std::span<const std::byte> data) override {
    bytes.append(reinterpret_cast<const char*>(data.data()), data.size());
  }
  std::byte buffer_[7];
};

struct Case {
  const char* name;
  std::shared_ptr<SliceLayout> layout;
  std::shared_ptr<FormatWriter> writer;
};

TEST(SliceLayout, SlicesTileEveryPartWithTheWholeFilesBytes) {
  dlbench::test::TempDir dir;
  const auto content = test::RandomContent();
  const std::vector<Case> cases = {
      {"npy", std::make_shared<NpyLayout>(), std::make_shared<NpyWriter>()},
      {"tfrecord", std::make_shared<TfrecordLayout>(), std::make_shared<TfrecordWriter>()},
      {"indexed_binary", std::make_shared<IndexedBinaryLayout>(),
       std::make_shared<IndexedBinaryWriter>()}};
  for (const Case& c : cases) {
    FileSpec spec;
    spec.path = (dir / (std::string("f.") + c.name)).string();
    if (std::string(c.name) == "tfrecord") spec.dali_index_path = spec.path + ".idx";
    spec.sample_dims = {5, 3};
    spec.samples = 11;
    spec.file_index = 2;
    const WriteResult whole = test::WriteFile(*c.writer, spec, content);
    const std::vector<std::string> parts = c.layout->parts(spec);
    ASSERT_EQ(parts, whole.files) << c.name;
    EXPECT_EQ(c.layout->part_size(spec, 0), whole.data_bytes) << c.name;
    for (int ranks = 1; ranks <= 4; ++ranks) {
      for (std::size_t part = 0; part < parts.size(); ++part) {
        std::string tiled;
        for (int rank = 0; rank < ranks; ++rank) {
          const SampleSlice slice = SharedFileSlice(spec.samples, ranks, rank);
          const ByteRange range = c.layout->range(spec, part, slice.first, slice.end());
          EXPECT_EQ(range.begin, tiled.size()) << c.name << " part " << part << " rank " << rank;
          StringSink sink;
          c.layout->stream(spec, part, slice.first, slice.end(), content, sink);
          sink.flush();
          EXPECT_EQ(sink.bytes.size(), range.end - range.begin) << c.name << " rank " << rank;
          tiled += sink.bytes;
        }
        EXPECT_EQ(tiled, test::ReadAll(parts[part])) << c.name << " part " << part;
      }
    }
  }
}

TEST(DaliIndexOffset, MatchesTheLinesWrittenOneByOne) {
  for (Bytes record : {1, 7, 49, 100, 114304, 999999}) {
    Bytes offset = 0;
    for (std::uint64_t k = 0; k < 2000; ++k) {
      ASSERT_EQ(DaliIndexOffset(k, record), offset) << "record " << record << ", line " << k;
      offset += std::to_string(k * record).size() + 1 + std::to_string(record).size() + 1;
    }
  }
}

}  // namespace
}  // namespace dlbench::formats
