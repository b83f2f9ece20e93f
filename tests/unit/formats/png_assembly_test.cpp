// Assembled png files (dataset.content.encoding: assembled): every size decodes with libpng
// (dlbench's reader, which checks the IDAT and zlib checksums) to an image of that size full of
// noise; the pools a writer keeps per width. Determinism and pool reuse across threads and
// widths: assembled_image_test.cpp.
#include "formats/image/png_assembly.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "format_files_fixture.h"
#include "format_test_support.h"
#include "formats/image/png_reader.h"
#include "formats/image/png_row_filter.h"
#include "formats/image/png_segment_pool.h"
#include "formats/image/png_writer.h"
#include "storage/file.h"

namespace dlbench::formats {
namespace {

// Main segments only, main segments and a remainder, one pixel, one row, one column (a
// one-dimensional sample), widths 1 and 7, odd heights, retinanet's image, a width whose main
// segments are one row.
const std::vector<std::vector<std::int64_t>> kAssembledPngShapes = {
    {64, 32}, {37, 300}, {1, 1},   {1, 1000},  {1000, 1}, {9},
    {7, 13},  {13, 7},   {255, 7}, {568, 568}, {3, 9000}};

class AssembledPngFiles : public test::FormatFiles<PngReader> {
 protected:
  AssembledPngFiles() : FormatFiles("img_0_of_1.png", 3) {}
};

TEST_F(AssembledPngFiles, EverySizeDecodesToNoiseOfThatSize) {
  const PngWriter writer;  // one writer: its pools are reused across files and widths
  for (const auto& dims : kAssembledPngShapes) {
    FileSpec spec = make_spec(dims, 1);
    spec.encoding = config::ContentEncoding::kAssembled;
    const WriteResult written = test::WriteFile(writer, spec, test::RandomContent());
    const std::string bytes = test::ReadAll(spec.path);
    EXPECT_EQ(written.data_bytes, bytes.size());
    EXPECT_EQ(bytes.substr(0, 8), "\x89PNG\r\n\x1A\n");
    EXPECT_EQ(bytes.substr(bytes.size() - 8, 4), "IEND");
    std::vector<std::byte> pixels;
    ASSERT_NO_THROW(pixels = FirstSample(spec)) << dims[0];  // the reader checks height and width
    // Noise is incompressible: the file is the rows and little more.
    const double raw = static_cast<double>(spec.sample_bytes() + spec.sample_bytes() / dims.back());
    if (raw > 4096) {
      EXPECT_LT(static_cast<double>(bytes.size()), raw * 1.005 + 256) << dims[0];
    }
    if (pixels.size() < 4096) continue;
    const test::PixelStats stats = test::StatsOf(pixels);
    EXPECT_NEAR(stats.mean, 127.5, 3.0) << dims[0];
    EXPECT_NEAR(stats.deviation, 73.9, 2.0) << dims[0];  // uniform bytes
  }
}

TEST_F(AssembledPngFiles, RefusesAnImageBeyondOneIdatChunk) {
  const FileSpec spec = test::AssembledSpec(path("big.png"), {46341, 46341}, 1);
  dlbench::test::ExpectError([&] { test::WriteFile(PngWriter(), spec, test::RandomContent()); },
                             ExitCode::kUsage,
                             {"big.png: an assembled png of 46341 x 46341 pixels does not fit one "
                              "IDAT chunk; use dataset.content.encoding per_file"});
  EXPECT_FALSE(std::filesystem::exists(spec.path));
}

TEST(PngPoolCache, KeepsThePoolsOfAWidthUntilEvicted) {
  PngPoolCache cache;
  const auto content = test::RandomContent();
  const auto first = cache.get(content, 568);
  EXPECT_EQ(cache.get(content, 568), first);
  EXPECT_EQ(first->main().rows(), PngSegmentRows(568));
  for (std::int64_t width = 1; width < static_cast<std::int64_t>(kPngCachedWidths); ++width) {
    cache.get(content, width);
  }
  EXPECT_EQ(cache.get(content, 568), first);  // still among the last kPngCachedWidths
  for (std::int64_t width = 100; width < 100 + static_cast<std::int64_t>(kPngCachedWidths);
       ++width) {
    cache.get(content, width);
  }
  EXPECT_NE(cache.get(content, 568), first);  // evicted and rebuilt
  const dataset::ContentGenerator other(config::ContentKind::kRandom, 2.0, 99);
  EXPECT_NE(cache.get(other, 1), cache.get(content, 1));
}

TEST(PngSegmentPool, SegmentsInflateAloneToFilteredRowsWithTheirChecksums) {
  const std::int64_t width = 7;
  const std::int64_t rows = 5;
  const PngSegmentPool pool(test::RandomContent(), 1u << 20, width, rows, 6);
  // The pool's rows: one noise image, each row filtered as libpng would (png_row_filter.h).
  const auto row_bytes = static_cast<std::size_t>(width + 1);
  std::vector<std::byte> filtered(row_bytes * static_cast<std::size_t>(rows) * 6);
  std::vector<std::byte> previous(row_bytes - 1);
  std::vector<std::byte> row(row_bytes - 1);
  for (std::size_t r = 0; r < filtered.size() / row_bytes; ++r) {
    test::RandomContent().fill(1u << 20, r * (row_bytes - 1), row);
    FilterPngRow(previous, row, std::span(filtered).subspan(r * row_bytes, row_bytes));
    previous.swap(row);
  }
  ASSERT_EQ(pool.size(), 6u);
  EXPECT_EQ(PngSegmentRows(width), 4096);
  EXPECT_EQ(PngSegmentRows(32767), 1);
  EXPECT_EQ(PngSegmentRows(8191), 4);
  for (std::size_t i = 0; i < pool.size(); ++i) {
    const PngSegment& s = pool.segment(i);
    // Coded: a dynamic-Huffman block, not final (as zlib codes noise in a per-file png), then an
    // empty stored block; stored: one stored block, not final. Each inflates by itself to the
    // segment's rows, ending byte-aligned.
    EXPECT_EQ(std::to_integer<int>(pool.bytes(s.coded)[0]) & 7, 4);
    EXPECT_EQ(std::to_integer<int>(pool.bytes(s.stored)[0]), 0);
    EXPECT_EQ(s.stored.size, s.inflated + 5);
    for (const PngDeflated* form : {&s.coded, &s.stored}) {
      const auto bytes = pool.bytes(*form);
      EXPECT_EQ(form->crc, crc32(0, reinterpret_cast<const Bytef*>(bytes.data()),
                                 static_cast<uInt>(bytes.size())));
      std::vector<unsigned char> out(static_cast<std::size_t>(rows * (width + 1)) + 16);
      z_stream z{};
      ASSERT_EQ(inflateInit2(&z, -15), Z_OK);
      z.next_in = const_cast<Bytef*>(reinterpret_cast<const Bytef*>(bytes.data()));
      z.avail_in = static_cast<uInt>(bytes.size());
      z.next_out = out.data();
      z.avail_out = static_cast<uInt>(out.size());
      EXPECT_EQ(inflate(&z, Z_SYNC_FLUSH), Z_OK);
      EXPECT_EQ(z.avail_in, 0u);
      const std::size_t inflated = z.total_out;
      inflateEnd(&z);
      ASSERT_EQ(inflated, s.inflated);
      EXPECT_EQ(s.adler, adler32(1, out.data(), static_cast<uInt>(inflated)));
      EXPECT_EQ(0, std::memcmp(out.data(), filtered.data() + i * inflated, inflated)) << i;
    }
  }
  dlbench::test::ExpectError([] { PngSegmentPool(test::RandomContent(), 1, 0, 1, 1); },
                             ExitCode::kInternal, {"at least one pixel, row and segment"});
  dlbench::test::ExpectError([] { PngSegmentPool(test::RandomContent(), 1, 65535, 1, 1); },
                             ExitCode::kInternal, {"at most 65,535 bytes a segment"});
}

}  // namespace
}  // namespace dlbench::formats
