#include "formats/image/jpeg_segment_pool.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <deque>
#include <string>

#include "dataset/content.h"
#include "formats/image/jpeg_bit_counter.h"
#include "formats/image/jpeg_coefficients.h"
#include "util/error.h"

namespace dlbench::formats {
namespace {

// The noise's blocks are 64 bytes of content each, filled 1,024 blocks at a time.
constexpr std::size_t kChunkBlocks = 1024;
// Blocks drawn in a row without finding one that completes a segment: the content is not noise.
constexpr int kMaxDraws = 4096;

unsigned Byte(std::span<const std::byte> bytes, std::size_t i) {
  return std::to_integer<unsigned>(bytes[i]);
}

[[noreturn]] void PoolFailure(const std::string& what) {
  throw InternalError("jpeg segment pool: " + what);
}

[[noreturn]] void Disagree(const std::string& what) {
  PoolFailure("the bit counter and libjpeg disagree: " + what);
}

// The noise's blocks one after another: 64 bytes of content each, transformed and quantised,
// with the bits of their AC coefficients.
class NoiseBlocks {
 public:
  NoiseBlocks(const dataset::ContentGenerator& content, std::uint64_t file,
              const JpegTables& tables, const JpegBitCounter& counter)
      : content_(content), file_(file), dct_(tables.quant), counter_(counter) {}

  struct Block {
    JpegBlock coefficients;
    std::uint32_t ac_bits;
  };
  Block next() {
    if (at_ == pixels_.size()) {
      content_.fill(file_, offset_, pixels_);
      offset_ += pixels_.size();
      at_ = 0;
    }
    const JpegBlock block = dct_(std::span(pixels_).subspan(at_).first<64>());
    at_ += 64;
    return {block, counter_.ac_bits(block.data())};
  }

 private:
  const dataset::ContentGenerator& content_;
  std::uint64_t file_;
  JpegDct dct_;
  const JpegBitCounter& counter_;
  std::vector<std::byte> pixels_ = std::vector<std::byte>(64 * kChunkBlocks);
  Bytes offset_ = 0;
  std::size_t at_ = 64 * kChunkBlocks;
};

// Appends `count` segments of `blocks` blocks to `kept` and their bit counts to `bits`. A segment
// is blocks - 1 blocks of the noise in order, then a last block, its DC set to 0, whose AC bits
// complete the segment to whole bytes: the first such block of the noise not used yet. The
// blocks drawn past while looking for it wait, by their AC bits mod 8, to end later segments.
void ChooseSegments(NoiseBlocks& noise, const JpegBitCounter& counter, int blocks, int count,
                    std::vector<JpegBlock>& kept, std::vector<std::uint64_t>& bits) {
  std::array<std::deque<NoiseBlocks::Block>, 8> waiting;  // by AC bits mod 8
  for (int s = 0; s < count; ++s) {
    std::uint64_t length = 0;
    int previous_dc = 0;  // the first block is predicted from 0
    for (int i = 0; i + 1 < blocks; ++i) {
      const NoiseBlocks::Block b = noise.next();
      length += counter.dc_bits(b.coefficients[0] - previous_dc) + b.ac_bits;
      previous_dc = b.coefficients[0];
      kept.push_back(b.coefficients);
    }
    length += counter.dc_bits(-previous_dc);  // the last block's DC: 0
    const std::size_t wanted = (8 - length % 8) % 8;
    for (int draws = 0; waiting[wanted].empty(); ++draws) {
      if (draws == kMaxDraws) {
        PoolFailure("no block in " + std::to_string(kMaxDraws) +
                    " of the content completes a segment of " + std::to_string(blocks) +
                    " block(s) to a whole number of bytes");
      }
      const NoiseBlocks::Block b = noise.next();
      waiting[b.ac_bits % 8].push_back(b);
    }
    const NoiseBlocks::Block& last = waiting[wanted].front();
    kept.push_back(last.coefficients);
    kept.back()[0] = 0;
    bits.push_back(length + last.ac_bits);
    waiting[wanted].pop_front();
  }
}

}  // namespace

JpegScanCut CutJpegScan(std::span<const std::byte> b, std::span<const std::uint64_t> segment_bits) {
  // The header: marker segments (FF xx, two-byte length) from after SOI to the end of SOS.
  if (b.size() < 4 || Byte(b, 0) != 0xFF || Byte(b, 1) != 0xD8) PoolFailure("no SOI");
  JpegScanCut cut;
  std::size_t at = 2;
  bool have_frame = false;
  for (;;) {
    if (at + 4 > b.size() || Byte(b, at) != 0xFF) PoolFailure("a malformed header");
    const unsigned marker = Byte(b, at + 1);
    const std::size_t length = Byte(b, at + 2) << 8 | Byte(b, at + 3);
    if (marker == 0xC0) {  // SOF0: length, precision, height, width
      cut.dimensions_offset = at + 5;
      have_frame = true;
    } else if (marker >= 0xC1 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 &&
               marker != 0xCC) {
      PoolFailure("a jpeg that is not baseline");
    }
    at += 2 + length;
    if (marker == 0xDA) break;  // SOS: the entropy-coded data follows
  }
  if (!have_frame || at > b.size()) PoolFailure("a malformed header");
  cut.header_end = at;

  // The scan: 0xFF is stuffed as FF 00; FF followed by anything else is a marker.
  for (std::size_t i = 0; i < segment_bits.size(); ++i) {
    if (segment_bits[i] % 8 != 0) {
      Disagree("segment " + std::to_string(i) + " has " + std::to_string(segment_bits[i]) +
               " bits, not whole bytes");
    }
    const std::size_t start = at;
    for (std::uint64_t left = segment_bits[i] / 8; left > 0;) {
      const std::size_t plain = at < b.size() ? std::min<std::size_t>(left, b.size() - at) : 0;
      const void* ff = std::memchr(b.data() + at, 0xFF, plain);
      const std::size_t run =
          ff == nullptr
              ? plain
              : static_cast<std::size_t>(static_cast<const std::byte*>(ff) - (b.data() + at));
      at += run;
      left -= run;
      if (left == 0) break;
      // At a 0xFF, or at the end: only FF 00 (a stuffed FF data byte) may stand here.
      if (at + 1 >= b.size() || Byte(b, at) != 0xFF || Byte(b, at + 1) != 0x00) {
        Disagree("libjpeg's scan ends in segment " + std::to_string(i) + " of " +
                 std::to_string(segment_bits.size()) + ", " + std::to_string(left) +
                 " counted bytes before its end");
      }
      at += 2;
      --left;
    }
    cut.starts.push_back(start);
    cut.ends.push_back(at);
  }
  if (at + 2 != b.size() || Byte(b, at) != 0xFF || Byte(b, at + 1) != 0xD9) {
    Disagree("libjpeg's scan goes on " + std::to_string(b.size() - at) +
             " bytes (EOI included) past the counted end");
  }
  return cut;
}

JpegSegmentPool::JpegSegmentPool(const dataset::ContentGenerator& content, std::uint64_t pool_file,
                                 int blocks, int count)
    : blocks_(blocks) {
  if (blocks < 1 || blocks > kMaxSide || count < 1 || count > kMaxSide) {
    PoolFailure("1 to " + std::to_string(kMaxSide) + " segments of 1 to " +
                std::to_string(kMaxSide) + " blocks, not " + std::to_string(count) + " of " +
                std::to_string(blocks));
  }
  const JpegTables tables = StandardJpegTables();
  const JpegBitCounter counter(tables.dc, tables.ac);
  NoiseBlocks noise(content, pool_file, tables, counter);
  std::vector<JpegBlock> kept;
  kept.reserve(static_cast<std::size_t>(blocks) * static_cast<std::size_t>(count));
  std::vector<std::uint64_t> bits;
  ChooseSegments(noise, counter, blocks, count, kept, bits);
  bytes_ = EncodeCoefficients(kept, blocks);
  cut_ = CutJpegScan(bytes_, bits);
  for (std::size_t i = 0; i < size(); ++i) segment_bytes_ += cut_.ends[i] - cut_.starts[i];
}

}  // namespace dlbench::formats
