// Deflated noise rows that assembled png files are put together from (png_assembly.h,
// docs/formats.md "Assembled png files"): `count` segments of `rows` rows of an image `width`
// pixels wide — the rows of one noise image, each filtered as libpng filters a per-file image's
// rows (png_row_filter.h: None, Sub, Up or Paeth, whichever the heuristic picks), each segment
// deflated by itself in the two forms zlib gives noise in a per-file png: a dynamic-Huffman block
// of literals, then an empty stored block (png_literal_deflate.h), and a stored block (zlib's
// choice while the block's start is in its window; png_assembly.h). A segment thus ends on a byte
// boundary and refers to nothing before it, so segments can follow each other in any order
// inside a zlib stream; a segment's first row filtered with Up or Paeth is then undone against
// another segment's last row, which gives other noise than the pool's but costs the reader what
// it costs in a per-file image. Kept per segment: the deflated bytes and their crc32 (with
// zlib's crc32_combine operator for their length), the inflated length and its adler32.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace dlbench::dataset {
class ContentGenerator;
}

namespace dlbench::formats {

// One deflated form of a segment.
struct PngDeflated {
  std::size_t begin = 0;     // in the pool's deflated bytes
  std::size_t size = 0;      // deflated
  std::uint32_t crc = 0;     // crc32 of the deflated bytes
  std::uint64_t crc_op = 0;  // crc32_combine_gen(size)
};

struct PngSegment {
  PngDeflated coded;           // a dynamic-Huffman block (png_literal_deflate.h)
  PngDeflated stored;          // a stored block
  std::uint32_t adler = 0;     // adler32 of the inflated bytes
  std::uint64_t inflated = 0;  // rows · (width + 1)
};

class PngSegmentPool {
 public:
  // The pixels are the bytes of pseudo-file `pool_file` of `content` (a file index no dataset
  // file has). Throws Error(kInternal) for an empty pool.
  PngSegmentPool(const dataset::ContentGenerator& content, std::uint64_t pool_file,
                 std::int64_t width, std::int64_t rows, int count);

  std::int64_t rows() const { return rows_; }
  std::size_t size() const { return segments_.size(); }
  const PngSegment& segment(std::size_t i) const { return segments_[i]; }
  std::span<const std::byte> bytes(const PngDeflated& s) const {
    return std::span(bytes_).subspan(s.begin, s.size);
  }

 private:
  std::vector<std::byte> bytes_;  // all segments' deflated bytes
  std::vector<PngSegment> segments_;
  std::int64_t rows_ = 0;
};

}  // namespace dlbench::formats
