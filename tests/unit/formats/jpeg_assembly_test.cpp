// Assembled jpeg files (dataset.content.encoding: assembled): every size decodes with
// libjpeg-turbo (dlbench's reader, which takes libjpeg's warnings — data past the last block, a
// scan ending early — as errors) to an image of that size full of noise, about as large as per
// file. Determinism and pool reuse across threads: assembled_image_test.cpp.
#include "formats/image/jpeg_assembly.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "format_files_fixture.h"
#include "format_test_support.h"
#include "formats/image/jpeg_reader.h"
#include "formats/image/jpeg_writer.h"
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
    const test::PixelStats stats = test::StatsOf(pixels);
    EXPECT_NEAR(stats.mean, 127.5, 3.0) << dims[0];
    // Uniform noise has a deviation of 74; quality 75 keeps most of it.
    EXPECT_GT(stats.deviation, 60.0) << dims[0];
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

TEST(JpegPools, HasNoTailPoolOfAWholeSegment) {
  JpegPools pools(test::RandomContent());
  dlbench::test::ExpectError([&] { pools.tail(kJpegSegmentBlocks); }, ExitCode::kInternal,
                             {"no tail pool of 32 blocks"});
}

}  // namespace
}  // namespace dlbench::formats
