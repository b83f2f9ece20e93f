// jpeg and png files: what dlbench writes decodes to the generated image (exactly for png, up to
// JPEG's loss for jpeg), and truncated, corrupt or mismatching files are I/O errors naming the
// file, thrown from read_sample so that reader.on_error: skip can skip them.
#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "format_files_fixture.h"
#include "format_test_support.h"
#include "formats/image/jpeg_reader.h"
#include "formats/image/jpeg_writer.h"
#include "formats/image/png_reader.h"
#include "formats/image/png_writer.h"
#include "support/expect_error.h"
#include "support/test_support.h"
#include "util/error.h"

namespace dlbench::formats {
namespace {

double MeanAbsoluteError(const std::vector<std::byte>& a, const std::vector<std::byte>& b) {
  double sum = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    sum += std::abs(static_cast<int>(a[i]) - static_cast<int>(b[i]));
  }
  return sum / static_cast<double>(a.size());
}

double Mean(const std::vector<std::byte>& a) {
  double sum = 0;
  for (const std::byte b : a) sum += static_cast<double>(b);
  return sum / static_cast<double>(a.size());
}

// Shapes of every writing path: rows in the writer's buffer (several blocks, a partial last one),
// a row wider than half the buffer, a single pixel, a one-dimensional sample (one column).
const std::vector<std::vector<std::int64_t>> kShapes = {
    {64, 64}, {37, 300}, {3, 3000}, {1, 1}, {9}};

class JpegFiles : public test::FormatFiles<JpegReader> {
 protected:
  JpegFiles() : FormatFiles("img_0_of_1.jpeg", 3) {}
};

TEST_F(JpegFiles, DecodesToTheGeneratedImageUpToJpegLoss) {
  const auto content = test::RandomContent();
  for (const auto& dims : kShapes) {
    const FileSpec spec = make_spec(dims, 1);
    const WriteResult written = test::WriteFile(JpegWriter(), spec, content);
    EXPECT_EQ(written.data_bytes, test::ReadAll(spec.path).size());
    auto reader = JpegReader().open(storage::PosixEnv(), spec, {});
    EXPECT_EQ(reader->open_bytes(), 0u);
    EXPECT_EQ(reader->sample_bytes(), spec.sample_bytes());
    std::vector<std::byte> out(spec.sample_bytes());
    EXPECT_EQ(reader->read_sample(0, out), written.data_bytes);
    const std::vector<std::byte> raw = test::SampleFirstBytes(content, spec, 0);
    // Quality 75 keeps each 8x8 block's mean: noise keeps its mean, loses detail.
    EXPECT_NEAR(Mean(out), Mean(raw), 3.0) << dims[0];
  }
}

TEST_F(JpegFiles, AFlatImageDecodesExactly) {
  const dataset::ContentGenerator zeros(config::ContentKind::kZeros, 2.0, 1);
  const FileSpec spec = make_spec({40, 24}, 1);
  test::WriteFile(JpegWriter(), spec, zeros);
  auto reader = JpegReader().open(storage::PosixEnv(), spec, {});
  std::vector<std::byte> out(spec.sample_bytes(), std::byte{7});
  reader->read_sample(0, out);
  EXPECT_EQ(MeanAbsoluteError(out, test::SampleFirstBytes(zeros, spec, 0)), 0.0);
}

TEST_F(JpegFiles, TruncatedCorruptAndMismatchingFilesAreIoErrors) {
  const FileSpec spec = make_spec({64, 64}, 1);
  test::WriteFile(JpegWriter(), spec, test::RandomContent());
  const std::string bytes = test::ReadAll(spec.path);
  EXPECT_NO_THROW(ReadFirst(spec));

  test::ExpectContains(
      read_error(make_spec({64, 65}, 1)),
      "bad jpeg: the image is 64 x 64 with 1 component(s), expected 64 x 65 grayscale");

  test::WriteAll(spec.path, bytes.substr(0, bytes.size() / 2));
  test::ExpectContains(read_error(spec), "bad jpeg: Premature end of JPEG file");

  std::string corrupt = bytes;
  corrupt[0] = 'X';
  test::WriteAll(spec.path, corrupt);
  test::ExpectContains(read_error(spec), "bad jpeg: Not a JPEG file");

  test::WriteAll(spec.path, "");
  test::ExpectContains(read_error(spec), "bad jpeg: Empty input file");
}

class PngFiles : public test::FormatFiles<PngReader> {
 protected:
  PngFiles() : FormatFiles("img_0_of_1.png", 5) {}
};

TEST_F(PngFiles, RoundTripsEveryPixel) {
  const auto content = test::RandomContent();
  for (const auto& dims : kShapes) {
    const FileSpec spec = make_spec(dims, 1);
    const WriteResult written = test::WriteFile(PngWriter(), spec, content);
    EXPECT_EQ(written.data_bytes, test::ReadAll(spec.path).size());
    auto reader = PngReader().open(storage::PosixEnv(), spec, {});
    std::vector<std::byte> out(spec.sample_bytes());
    EXPECT_EQ(reader->read_sample(0, out), written.data_bytes);
    EXPECT_EQ(out, test::SampleFirstBytes(content, spec, 0)) << dims[0];
  }
}

TEST_F(PngFiles, TruncatedCorruptAndMismatchingFilesAreIoErrors) {
  const FileSpec spec = make_spec({64, 64}, 1);
  test::WriteFile(PngWriter(), spec, test::RandomContent());
  const std::string bytes = test::ReadAll(spec.path);

  test::ExpectContains(
      read_error(make_spec({63, 64}, 1)),
      "bad png: the image is 64 x 64, bit depth 8, color type 0; expected 63 x 64 8-bit "
      "grayscale");

  test::WriteAll(spec.path, bytes.substr(0, bytes.size() / 2));
  test::ExpectContains(read_error(spec), "bad png: truncated");
  test::WriteAll(spec.path, bytes.substr(0, bytes.size() - 4));  // IEND's CRC cut off
  test::ExpectContains(read_error(spec), "bad png: truncated");

  std::string corrupt = bytes;
  corrupt[bytes.size() / 2] = static_cast<char>(corrupt[bytes.size() / 2] ^ 0x55);  // in IDAT
  test::WriteAll(spec.path, corrupt);
  test::ExpectContains(read_error(spec), "bad png: IDAT: incorrect data check");

  corrupt = bytes;
  corrupt[19] = static_cast<char>(corrupt[19] ^ 1);  // the width, in IHDR
  test::WriteAll(spec.path, corrupt);
  test::ExpectContains(read_error(spec), "bad png: IHDR: CRC error");

  corrupt = bytes;
  corrupt[1] = 'X';
  test::WriteAll(spec.path, corrupt);
  test::ExpectContains(read_error(spec), "bad png: Not a PNG file");
}

TEST(ImageFiles, SizesDependOnPixelsAndShapesAreChecked) {
  std::vector<std::unique_ptr<FormatWriter>> writers;
  writers.push_back(std::make_unique<JpegWriter>());
  writers.push_back(std::make_unique<PngWriter>());
  for (const auto& writer : writers) {
    FileSpec spec;
    spec.path = "/nonexistent-dlbench/img.x";
    spec.sample_dims = {4, 4};
    EXPECT_THROW(writer->file_size(spec), Error);
    // A side beyond the format's limit is a configuration the image formats cannot hold (exit
    // 2); the others are config::Validate's rules for images, so a writer handed them is a bug.
    for (const auto& [dims, samples, dtype, code, message] :
         std::vector<std::tuple<std::vector<std::int64_t>, std::int64_t, std::string, ExitCode,
                                std::string>>{
             {{4, 4}, 2, "uint8", ExitCode::kInternal, "files hold one image, not 2 samples"},
             {{4, 4, 3}, 1, "uint8", ExitCode::kInternal, "images have 1 or 2 dimensions, got 3"},
             {{4, 4}, 1, "uint16", ExitCode::kInternal, "images hold 8-bit pixels, not uint16"},
             {{4, 2000000},
              1,
              "uint8",
              ExitCode::kUsage,
              " pixels per side, the sample is 4 x 2000000"}}) {
      spec.sample_dims = dims;
      spec.samples = samples;
      spec.dtype = dtype;
      std::vector<std::byte> buffer(4096);
      dlbench::test::ExpectError(
          [&] { writer->write(storage::PosixEnv(), spec, test::RandomContent(), buffer); }, code,
          {message});
    }
  }
}

}  // namespace
}  // namespace dlbench::formats
