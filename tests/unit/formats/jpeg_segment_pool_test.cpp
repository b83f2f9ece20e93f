// The pieces of the assembled jpeg pool (jpeg_segment_pool.h): the bit counter against libjpeg's
// encoder, the DCT against libjpeg's, the cut of a scan at counted offsets (and its refusal when
// counter and encoder disagree), and the pool's segments: whole bytes, no marker, no DRI.
#include "formats/image/jpeg_segment_pool.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "format_test_support.h"
#include "formats/image/jpeg_bit_counter.h"
#include "formats/image/jpeg_coefficients.h"
#include "formats/image/jpeg_parameters.h"
#include "support/expect_error.h"
#include "util/error.h"

namespace dlbench::formats {
namespace {

// The scan's entropy-coded bytes of an encoding without restart markers, unstuffed.
std::size_t ScanDataBytes(const std::vector<std::byte>& jpeg) {
  std::size_t at = 2;  // after SOI: marker segments up to SOS's
  while (jpeg[at + 1] != std::byte{0xDA}) {
    at += 2 + (std::to_integer<std::size_t>(jpeg[at + 2]) << 8 |
               std::to_integer<std::size_t>(jpeg[at + 3]));
  }
  at += 2 + (std::to_integer<std::size_t>(jpeg[at + 2]) << 8 |
             std::to_integer<std::size_t>(jpeg[at + 3]));
  std::size_t n = 0;
  for (; at + 1 < jpeg.size(); ++n) {
    if (jpeg[at] == std::byte{0xFF}) {
      if (jpeg[at + 1] == std::byte{0xD9}) break;
      EXPECT_EQ(jpeg[at + 1], std::byte{0x00}) << at;
      at += 2;
    } else {
      ++at;
    }
  }
  return n;
}

// libjpeg-turbo's own coefficients of `pixels` (8 x 8 · n), encoded per file and read back.
std::vector<JpegBlock> LibjpegCoefficients(const std::vector<std::byte>& pixels) {
  const auto n = static_cast<JDIMENSION>(pixels.size() / 64);
  unsigned char* memory = nullptr;
  unsigned long size = 0;  // NOLINT(google-runtime-int)
  jpeg_compress_struct c{};
  jpeg_error_mgr cerr{};
  c.err = jpeg_std_error(&cerr);
  jpeg_create_compress(&c);
  jpeg_mem_dest(&c, &memory, &size);
  SetJpegParameters(c, ImageShape{8, 8 * static_cast<std::int64_t>(n)});
  jpeg_start_compress(&c, TRUE);
  for (int r = 0; r < 8; ++r) {  // rows of the image: row r of every block
    std::vector<JSAMPLE> row(8 * n);
    for (JDIMENSION b = 0; b < n; ++b) {
      for (int x = 0; x < 8; ++x)
        row[8 * b + x] = std::to_integer<JSAMPLE>(pixels[64 * b + 8 * r + x]);
    }
    JSAMPROW p = row.data();
    jpeg_write_scanlines(&c, &p, 1);
  }
  jpeg_finish_compress(&c);
  jpeg_destroy_compress(&c);
  jpeg_decompress_struct d{};
  jpeg_error_mgr derr{};
  d.err = jpeg_std_error(&derr);
  jpeg_create_decompress(&d);
  jpeg_mem_src(&d, memory, size);
  jpeg_read_header(&d, TRUE);
  jvirt_barray_ptr* arrays = jpeg_read_coefficients(&d);
  JBLOCKARRAY row =
      (*d.mem->access_virt_barray)(reinterpret_cast<j_common_ptr>(&d), arrays[0], 0, 1, FALSE);
  std::vector<JpegBlock> blocks(n);
  for (JDIMENSION b = 0; b < n; ++b) std::memcpy(blocks[b].data(), row[0][b], sizeof(JBLOCK));
  jpeg_finish_decompress(&d);
  jpeg_destroy_decompress(&d);
  std::free(memory);  // NOLINT(cppcoreguidelines-no-malloc)
  return blocks;
}

TEST(JpegBitCounter, CountsWhatLibjpegWrites) {
  const JpegTables tables = StandardJpegTables();
  const JpegBitCounter counter(tables.dc, tables.ac);
  // DC differences of every category 0..11 (-1024 .. 1023 and back), AC categories 1..10, runs
  // of 16 and more zeros (ZRL), a block ending in a nonzero coefficient (no EOB), all-zero blocks.
  std::vector<JpegBlock> blocks(24);
  std::mt19937 random(7);
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    JpegBlock& block = blocks[b];
    block[0] =
        static_cast<JCOEF>(b % 2 == 0 ? -1024 + static_cast<int>(b) : 1023 - static_cast<int>(b));
    if (b % 4 == 3) continue;  // DC only
    for (int i = 1; i < 64; ++i) {
      if (random() % 3 == 0 || (b % 4 == 1 && i > 20 && i < 60)) continue;  // zeros, long runs
      const int category = 1 + static_cast<int>(random() % 10);
      const int magnitude =
          (1 << (category - 1)) + static_cast<int>(random() % (1u << (category - 1)));
      block[i] = static_cast<JCOEF>(random() % 2 == 0 ? magnitude : -magnitude);
    }
    if (b % 4 == 2) block[63] = 5;  // the last coefficient nonzero: no EOB
  }
  std::uint64_t bits = 0;
  int previous = 0;
  for (const JpegBlock& block : blocks) {
    bits += counter.dc_bits(block[0] - previous) + counter.ac_bits(block.data());
    previous = block[0];
  }
  EXPECT_EQ(counter.dc_bits(0), 2u);  // the standard luminance table's code for category 0
  EXPECT_EQ(counter.dc_bits(-2047), 9u + 11u);
  const std::vector<std::byte> jpeg = EncodeCoefficients(blocks, 4);
  EXPECT_EQ(ScanDataBytes(jpeg), (bits + 7) / 8);  // the last byte padded with 1-bits
}

TEST(JpegBitCounter, RefusesASymbolItsTablesDoNotCode) {
  JpegTables tables = StandardJpegTables();
  JHUFF_TBL ac = tables.ac;
  ac.bits[16] = 0;  // the longest codes gone, among them (0, 10)'s
  const JpegBitCounter counter(tables.dc, ac);
  JpegBlock block{};
  block[1] = 1000;  // category 10
  dlbench::test::ExpectError([&] { counter.ac_bits(block.data()); }, ExitCode::kInternal,
                             {"jpeg bit counter: the AC table has no code for 10"});
  JHUFF_TBL broken = tables.dc;
  broken.bits[16] = 255;
  dlbench::test::ExpectError([&] { JpegBitCounter(broken, tables.ac); }, ExitCode::kInternal,
                             {"a table of > 256 codes"});
}

TEST(JpegDct, MatchesLibjpegsCoefficientsButForRareTies) {
  std::vector<std::byte> pixels(64 * 512);
  test::RandomContent().fill(1, 0, pixels);
  const std::vector<JpegBlock> theirs = LibjpegCoefficients(pixels);
  const JpegDct dct(StandardJpegTables().quant);
  std::size_t differ = 0;
  for (std::size_t b = 0; b < theirs.size(); ++b) {
    const JpegBlock ours = dct(std::span(pixels).subspan(64 * b).first<64>());
    for (std::size_t i = 0; i < ours.size(); ++i) {
      ASSERT_LE(std::abs(ours[i] - theirs[b][i]), 1) << b << " " << i;
      differ += ours[i] != theirs[b][i] ? 1 : 0;
    }
  }
  EXPECT_LT(differ, pixels.size() / 100);  // libjpeg's integer DCT rounds its way in < 1 %
}

TEST(JpegScanCut, RefusesCountsThatDoNotMeetLibjpegsScan) {
  std::vector<JpegBlock> blocks(8);  // 9 bits each: DC difference 0, AC (0, 1), EOB
  for (JpegBlock& block : blocks) block[1] = 1;
  const JpegTables tables = StandardJpegTables();
  const JpegBitCounter counter(tables.dc, tables.ac);
  std::uint64_t bits = 0;
  for (const JpegBlock& block : blocks) bits += counter.dc_bits(0) + counter.ac_bits(block.data());
  ASSERT_EQ(bits % 8, 0u) << "the test's blocks must code to whole bytes";
  const std::vector<std::byte> jpeg = EncodeCoefficients(blocks, 8);
  const std::vector<std::uint64_t> right = {bits - 16, 16};
  const JpegScanCut cut = CutJpegScan(jpeg, right);
  ASSERT_EQ(cut.starts.size(), 2u);
  EXPECT_EQ(cut.ends[1] + 2, jpeg.size());  // EOI follows
  dlbench::test::ExpectError(
      [&] { CutJpegScan(jpeg, std::vector<std::uint64_t>{bits - 8}); }, ExitCode::kInternal,
      {"the bit counter and libjpeg disagree: libjpeg's scan goes on 3 bytes"});
  dlbench::test::ExpectError([&] { CutJpegScan(jpeg, std::vector<std::uint64_t>{bits + 8}); },
                             ExitCode::kInternal,
                             {"disagree: libjpeg's scan ends in segment 0 of 1"});
  dlbench::test::ExpectError(
      [&] {
        CutJpegScan(jpeg, std::vector<std::uint64_t>{bits - 4, 4});
      },
      ExitCode::kInternal, {"segment 0 has", "bits, not whole bytes"});
  const std::vector<std::byte> no_soi(jpeg.begin() + 2, jpeg.end());
  dlbench::test::ExpectError([&] { CutJpegScan(no_soi, right); }, ExitCode::kInternal, {"no SOI"});
  std::vector<std::byte> progressive = jpeg;
  for (std::size_t i = 0; i + 1 < progressive.size(); ++i) {
    if (progressive[i] == std::byte{0xFF} && progressive[i + 1] == std::byte{0xC0}) {
      progressive[i + 1] = std::byte{0xC2};
      break;
    }
  }
  dlbench::test::ExpectError([&] { CutJpegScan(progressive, right); }, ExitCode::kInternal,
                             {"not baseline"});
  const std::vector<std::byte> short_header(jpeg.begin(), jpeg.begin() + 30);
  dlbench::test::ExpectError([&] { CutJpegScan(short_header, right); }, ExitCode::kInternal,
                             {"a malformed header"});
  dlbench::test::ExpectError([&] { EncodeCoefficients(blocks, 3); }, ExitCode::kInternal,
                             {"8 blocks do not make rows of 3"});
}

TEST(JpegSegmentPool, SegmentsAreWholeBytesOfNoiseWithoutMarkers) {
  const JpegSegmentPool pool(test::RandomContent(), 1u << 20, 5, 24);
  EXPECT_EQ(pool.size(), 24u);
  EXPECT_EQ(pool.blocks(), 5);
  const auto header = pool.header();
  ASSERT_GT(header.size(), pool.dimensions_offset() + 4);
  EXPECT_EQ(std::to_integer<int>(header[0]), 0xFF);
  EXPECT_EQ(std::to_integer<int>(header[1]), 0xD8);
  // SOF0's height and width: 8 · segments x 8 · blocks.
  auto u16 = [&](std::size_t at) {
    return std::to_integer<int>(header[at]) << 8 | std::to_integer<int>(header[at + 1]);
  };
  EXPECT_EQ(u16(pool.dimensions_offset()), 8 * 24);
  EXPECT_EQ(u16(pool.dimensions_offset() + 2), 8 * 5);
  // No DRI: the scan has no restart markers, as libjpeg's per-file encoding.
  for (std::size_t i = 0; i + 1 < header.size(); ++i) {
    EXPECT_FALSE(header[i] == std::byte{0xFF} && header[i + 1] == std::byte{0xDD}) << i;
  }
  std::size_t total = 0;
  for (std::size_t i = 0; i < pool.size(); ++i) {
    const auto segment = pool.segment(i);
    ASSERT_FALSE(segment.empty());
    total += segment.size();
    for (std::size_t j = 0; j < segment.size(); ++j) {  // only stuffed 0xFF: no marker
      if (std::to_integer<int>(segment[j]) != 0xFF) continue;
      ASSERT_LT(j + 1, segment.size());
      EXPECT_EQ(std::to_integer<int>(segment[++j]), 0x00);
    }
  }
  EXPECT_EQ(pool.segment_bytes(), total);
  EXPECT_GT(total, 24u * 5 * 64 / 3);  // noise at quality 75: about half a byte per pixel
  // The same bytes on every machine and compiler for the same seed (no libm, no fused
  // multiply-adds in the DCT): FNV-1a of the segments, as first computed on x86-64 / GCC 12.
  std::uint64_t hash = 0xcbf29ce484222325ull;
  for (std::size_t i = 0; i < pool.size(); ++i) {
    for (const std::byte b : pool.segment(i))
      hash = (hash ^ std::to_integer<std::uint64_t>(b)) * 0x100000001b3ull;
  }
  EXPECT_EQ(hash, 15209880427841956816ull);
}

TEST(JpegSegmentPool, RefusesImpossiblePools) {
  dlbench::test::ExpectError([] { JpegSegmentPool(test::RandomContent(), 1, 0, 4); },
                             ExitCode::kInternal,
                             {"1 to 1024 segments of 1 to 1024 blocks, not 4 of 0"});
  dlbench::test::ExpectError([] { JpegSegmentPool(test::RandomContent(), 1, 2, 1025); },
                             ExitCode::kInternal, {"not 1025 of 2"});
  // Flat blocks code to 6 bits each (DC difference 0, EOB): a one-block segment never makes
  // whole bytes.
  const dataset::ContentGenerator zeros(config::ContentKind::kZeros, 1.0, 1);
  dlbench::test::ExpectError([&] { JpegSegmentPool(zeros, 1, 1, 4); }, ExitCode::kInternal,
                             {"no block in 4096 of the content completes a segment of 1 block(s)"});
}

}  // namespace
}  // namespace dlbench::formats
