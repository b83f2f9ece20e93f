// Encoded noise that assembled jpeg files are put together from (jpeg_assembly.h, docs/formats.md
// "Assembled jpeg files"): one noise image encoded once with dlbench's jpeg parameters and a
// restart marker every `mcus` blocks, split at its restart markers into byte-aligned,
// self-contained entropy-coded segments. A segment decodes to `mcus` 8x8 blocks whatever the
// width of the image it is put in (DC prediction restarts at each RSTn; the Huffman and
// quantisation tables are the same in every file), so one pool serves every image size.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace dlbench::dataset {
class ContentGenerator;
}

namespace dlbench::formats {

class JpegSegmentPool {
 public:
  // Encodes a noise image of `segments` rows of `mcus` blocks (8 · mcus x 8 · segments pixels),
  // its pixels being the bytes of pseudo-file `pool_file` of `content` (a file index no dataset
  // file has), with a restart interval of `mcus`. Throws Error(kInternal) for a codec failure or
  // an encoding that does not split into `segments` segments.
  JpegSegmentPool(const dataset::ContentGenerator& content, std::uint64_t pool_file, int mcus,
                  int segments);

  // SOI to the end of the SOS header, as encoded (its DRI says `mcus`).
  std::span<const std::byte> header() const { return std::span(bytes_).first(header_end_); }
  // Offset in header() of the SOF0 frame's height (then width), two big-endian bytes each.
  std::size_t dimensions_offset() const { return dimensions_offset_; }
  int mcus() const { return mcus_; }
  std::size_t size() const { return starts_.size(); }
  // Segment i's entropy-coded bytes, padded to a byte, without marker.
  std::span<const std::byte> segment(std::size_t i) const {
    return std::span(bytes_).subspan(starts_[i], ends_[i] - starts_[i]);
  }
  // Bytes of all segments.
  std::size_t segment_bytes() const { return segment_bytes_; }

 private:
  std::vector<std::byte> bytes_;     // the encoded image
  std::vector<std::size_t> starts_;  // segment i is [starts_[i], ends_[i])
  std::vector<std::size_t> ends_;
  std::size_t header_end_ = 0;
  std::size_t dimensions_offset_ = 0;
  std::size_t segment_bytes_ = 0;
  int mcus_ = 0;
};

}  // namespace dlbench::formats
