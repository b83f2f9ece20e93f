#include <gtest/gtest.h>
#include <zlib.h>

#include <algorithm>
#include <vector>

#include "dataset/content.h"

namespace dlbench::dataset {
namespace {

using config::ContentKind;

std::vector<std::byte> Generate(const ContentGenerator& g, std::uint64_t file, Bytes offset,
                                std::size_t length) {
  std::vector<std::byte> out(length, std::byte{0xAA});
  g.fill(file, offset, out);
  return out;
}

double CompressionRatio(const std::vector<std::byte>& data) {
  uLongf size = compressBound(data.size());
  std::vector<Bytef> compressed(size);
  EXPECT_EQ(compress2(compressed.data(), &size, reinterpret_cast<const Bytef*>(data.data()),
                      data.size(), Z_DEFAULT_COMPRESSION),
            Z_OK);
  return static_cast<double>(data.size()) / static_cast<double>(size);
}

TEST(ContentGenerator, Reproducible) {
  const ContentGenerator a(ContentKind::kRandom, 2.0, 42);
  const ContentGenerator b(ContentKind::kRandom, 2.0, 42);
  EXPECT_EQ(Generate(a, 3, 0, 10000), Generate(b, 3, 0, 10000));
}

TEST(ContentGenerator, DiffersAcrossFilesSeedsAndOffsets) {
  const ContentGenerator g(ContentKind::kRandom, 2.0, 42);
  const auto base = Generate(g, 3, 0, 4096);
  EXPECT_NE(base, Generate(g, 4, 0, 4096));
  EXPECT_NE(base, Generate(ContentGenerator(ContentKind::kRandom, 2.0, 43), 3, 0, 4096));
  EXPECT_NE(base, Generate(g, 3, 4096, 4096));
  // Random content: every byte value shows up, none dominates.
  std::vector<int> histogram(256);
  for (std::byte b : Generate(g, 3, 0, 1 << 20)) ++histogram[static_cast<int>(b)];
  const auto [low, high] = std::minmax_element(histogram.begin(), histogram.end());
  EXPECT_GT(*low, 3500);  // expected 4096 each
  EXPECT_LT(*high, 4700);
  EXPECT_LT(CompressionRatio(Generate(g, 3, 0, 1 << 20)), 1.01);
}

TEST(ContentGenerator, AdjacentRangesEqualOneCall) {
  for (ContentKind kind : {ContentKind::kRandom, ContentKind::kCompressible}) {
    const ContentGenerator g(kind, 3.0, 7);
    const Bytes start = 4090;  // unaligned, straddling a 4 KiB block boundary
    const auto whole = Generate(g, 11, start, 20000);
    // Split at every kind of edge: inside a word, on a word, single bytes, empty pieces.
    for (std::size_t cut1 : {0, 1, 3, 6, 8, 13, 4096, 9999}) {
      for (std::size_t cut2 : {cut1, cut1 + 1, cut1 + 5, cut1 + 8, cut1 + 5003}) {
        std::vector<std::byte> joined(whole.size());
        std::span<std::byte> all(joined);
        g.fill(11, start, all.subspan(0, cut1));
        g.fill(11, start + cut1, all.subspan(cut1, cut2 - cut1));
        g.fill(11, start + cut2, all.subspan(cut2));
        ASSERT_EQ(joined, whole) << "cuts " << cut1 << ", " << cut2;
      }
    }
    // A short range inside one word.
    const auto tiny = Generate(g, 11, start + 2, 3);
    EXPECT_TRUE(std::equal(tiny.begin(), tiny.end(), whole.begin() + 2));
  }
}

// The bytes of a dataset must not change between versions or CPUs (datasets are shared and
// resumed): CRC-32 of 1 MiB + 5 bytes at three offsets, pinned from the word-at-a-time version.
TEST(ContentGenerator, BytesArePinned) {
  struct Case {
    ContentKind kind;
    Bytes offset;
    uLong crc;
  };
  for (const Case& c :
       {Case{ContentKind::kRandom, 0, 0xfa19175c}, Case{ContentKind::kRandom, 3, 0x04922a8f},
        Case{ContentKind::kRandom, 1 << 20, 0xf75e5301},
        Case{ContentKind::kCompressible, 0, 0xbcd25dab},
        Case{ContentKind::kCompressible, 3, 0xb239f32b},
        Case{ContentKind::kCompressible, 1 << 20, 0x53db28c5}}) {
    const auto bytes = Generate(ContentGenerator(c.kind, 3.0, 42), 3, c.offset, (1 << 20) + 5);
    EXPECT_EQ(crc32(0, reinterpret_cast<const Bytef*>(bytes.data()), bytes.size()), c.crc)
        << "kind " << static_cast<int>(c.kind) << ", offset " << c.offset;
  }
}

// Pieces shorter than 8 words take the one-word-at-a-time path; long ranges the 8-word one.
TEST(ContentGenerator, LongRangesEqualTheirShortPieces) {
  const ContentGenerator g(ContentKind::kRandom, 2.0, 9);
  for (const Bytes start : {Bytes(0), Bytes(5), Bytes(8 * 1000 + 3)}) {
    const auto whole = Generate(g, 2, start, 8 * 203 + 7);
    std::vector<std::byte> pieces(whole.size());
    for (std::size_t at = 0; at < pieces.size(); at += 13) {
      const std::size_t n = std::min<std::size_t>(13, pieces.size() - at);
      g.fill(2, start + at, std::span<std::byte>(pieces).subspan(at, n));
    }
    EXPECT_EQ(whole, pieces) << "start " << start;
  }
}

TEST(ContentGenerator, Zeros) {
  const ContentGenerator g(ContentKind::kZeros, 2.0, 42);
  const auto data = Generate(g, 5, 3, 10001);
  EXPECT_TRUE(std::all_of(data.begin(), data.end(), [](std::byte b) { return b == std::byte{0}; }));
}

TEST(ContentGenerator, CompressesByTheConfiguredRatio) {
  for (double ratio : {1.5, 2.0, 4.0, 10.0}) {
    const ContentGenerator g(ContentKind::kCompressible, ratio, 1);
    const double measured = CompressionRatio(Generate(g, 2, 0, 4 << 20));
    EXPECT_GT(measured, ratio * 0.75) << ratio;
    EXPECT_LT(measured, ratio * 1.25) << ratio;
  }
  // Ratio 1 or less: incompressible, like kRandom.
  const ContentGenerator one(ContentKind::kCompressible, 1.0, 1);
  EXPECT_LT(CompressionRatio(Generate(one, 2, 0, 1 << 20)), 1.01);
}

TEST(ContentGenerator, CompressibleDiffersAcrossFiles) {
  const ContentGenerator g(ContentKind::kCompressible, 2.0, 1);
  EXPECT_NE(Generate(g, 0, 0, 4096), Generate(g, 1, 0, 4096));
}

}  // namespace
}  // namespace dlbench::dataset
