// Encoded noise that assembled jpeg files are put together from (jpeg_assembly.h, docs/formats.md
// "Assembled jpeg files"): `count` segments of `blocks` 8x8 blocks each, cut from one baseline
// scan without restart markers. In a grayscale scan every block is an MCU, coded in raster order
// with its DC as the difference from the previous block's (from 0 at the start of the scan); so
// any segment can follow any other at byte level, whatever the width of the image, because each
// - codes to a whole number of bytes (no padding bits between segments), and
// - ends with a block whose quantised DC is 0 (the next segment's first block is then predicted
//   from 0, as at the start of a scan, and codes the same wherever it stands).
// The segments are noise's coefficients: blocks of 64 bytes of content, transformed and quantised
// with dlbench's jpeg tables (jpeg_coefficients.h). A segment is `blocks` - 1 of them in order,
// then a last one, its DC set to 0, whose AC bits (jpeg_bit_counter.h) complete the segment's
// exact bit count to a multiple of 8 (blocks skipped while looking for it end later segments).
// libjpeg-turbo encodes the segments as one image, a segment per block row, and its scan is cut
// at the counted byte offsets (CutJpegScan), which must meet libjpeg's encoding exactly. The
// Huffman and quantisation tables are the same in every file, so one pool serves every size.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace dlbench::dataset {
class ContentGenerator;
}

namespace dlbench::formats {

// A baseline jpeg's header and its scan cut into pieces of counted lengths.
struct JpegScanCut {
  std::size_t header_end = 0;         // SOI to the end of the SOS header
  std::size_t dimensions_offset = 0;  // of SOF0's height (then width), two bytes each
  std::vector<std::size_t> starts;    // piece i is [starts[i], ends[i])
  std::vector<std::size_t> ends;
};

// Cuts the scan of `encoded` (a baseline jpeg of one scan, no restart markers) into pieces of
// segment_bits[i] / 8 entropy-coded bytes (a stuffed FF 00 counting as one), which must be
// followed by EOI and nothing else. Throws InternalError when the header is not baseline, or
// when the bits are not whole bytes or do not meet libjpeg's scan exactly (the bit counter and
// libjpeg disagree).
JpegScanCut CutJpegScan(std::span<const std::byte> encoded,
                        std::span<const std::uint64_t> segment_bits);

class JpegSegmentPool {
 public:
  // The noise is the bytes of pseudo-file `pool_file` of `content` (a file index no dataset file
  // has). Throws InternalError unless blocks and count are 1 to kMaxSide (the segments are
  // encoded as one image of 8 · count x 8 · blocks pixels), when the content has no block that
  // completes a segment to whole bytes (content of zeros: segments of one block), or for a codec
  // failure.
  JpegSegmentPool(const dataset::ContentGenerator& content, std::uint64_t pool_file, int blocks,
                  int count);

  static constexpr int kMaxSide = 1024;

  // SOI to the end of the SOS header (no DRI), as libjpeg encodes it.
  std::span<const std::byte> header() const { return std::span(bytes_).first(cut_.header_end); }
  // Offset in header() of the SOF0 frame's height (then width), two big-endian bytes each.
  std::size_t dimensions_offset() const { return cut_.dimensions_offset; }
  int blocks() const { return blocks_; }
  std::size_t size() const { return cut_.starts.size(); }
  // Segment i's entropy-coded bytes: whole bytes, 0xFF stuffed, no marker.
  std::span<const std::byte> segment(std::size_t i) const {
    return std::span(bytes_).subspan(cut_.starts[i], cut_.ends[i] - cut_.starts[i]);
  }
  // Bytes of all segments.
  std::size_t segment_bytes() const { return segment_bytes_; }

 private:
  std::vector<std::byte> bytes_;  // the encoded image of the segments
  JpegScanCut cut_;
  std::size_t segment_bytes_ = 0;
  int blocks_ = 0;
};

}  // namespace dlbench::formats
