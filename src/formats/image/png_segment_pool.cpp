#include "formats/image/png_segment_pool.h"

#include <zlib.h>

#include <string>

#include "dataset/content.h"
#include "formats/image/png_literal_deflate.h"
#include "formats/image/png_row_filter.h"
#include "util/error.h"

namespace dlbench::formats {
PngSegmentPool::PngSegmentPool(const dataset::ContentGenerator& content, std::uint64_t pool_file,
                               std::int64_t width, std::int64_t rows, int count)
    : rows_(rows) {
  if (width < 1 || rows < 1 || count < 1 || rows * (width + 1) > 65535) {
    throw InternalError(
        "png segment pool: at least one pixel, row and segment, at most 65,535 "
        "bytes a segment");
  }
  const std::size_t row_bytes = static_cast<std::size_t>(width) + 1;
  const std::size_t segment_bytes = row_bytes * static_cast<std::size_t>(rows);
  // The rows of one noise image, each filtered as libpng filters a per-file image's rows.
  std::vector<std::byte> raw(segment_bytes * static_cast<std::size_t>(count));
  std::vector<std::byte> previous(row_bytes - 1);  // zeros above the first row
  std::vector<std::byte> row(row_bytes - 1);
  for (std::size_t r = 0; r < raw.size() / row_bytes; ++r) {
    content.fill(pool_file, static_cast<Bytes>(r * (row_bytes - 1)), row);
    FilterPngRow(previous, row, std::span(raw).subspan(r * row_bytes, row_bytes));
    previous.swap(row);
  }
  bytes_.reserve(2 * raw.size() + raw.size() / 64 + 64 * static_cast<std::size_t>(count));
  segments_.reserve(static_cast<std::size_t>(count));
  for (std::size_t i = 0; i < static_cast<std::size_t>(count); ++i) {
    const std::span<const std::byte> rows_of =
        std::span(raw).subspan(i * segment_bytes, segment_bytes);
    PngSegment s;
    s.inflated = segment_bytes;
    s.adler = static_cast<std::uint32_t>(adler32(1, reinterpret_cast<const Bytef*>(rows_of.data()),
                                                 static_cast<uInt>(segment_bytes)));
    s.coded.begin = bytes_.size();
    DeflateLiterals(rows_of, bytes_);
    s.stored.begin = bytes_.size();
    // Not final, stored; then LEN and NLEN, little-endian (kPngSegmentBytes keeps LEN < 65,536).
    const auto n = static_cast<unsigned>(segment_bytes);
    for (const unsigned b : {0u, n & 0xFF, n >> 8 & 0xFF, ~n & 0xFF, ~n >> 8 & 0xFF}) {
      bytes_.push_back(static_cast<std::byte>(b));
    }
    bytes_.insert(bytes_.end(), rows_of.begin(), rows_of.end());
    s.coded.size = s.stored.begin - s.coded.begin;
    s.stored.size = bytes_.size() - s.stored.begin;
    for (PngDeflated* form : {&s.coded, &s.stored}) {
      form->crc = static_cast<std::uint32_t>(
          crc32(0, reinterpret_cast<const Bytef*>(bytes_.data() + form->begin),
                static_cast<uInt>(form->size)));
      form->crc_op = crc32_combine_gen(static_cast<z_off_t>(form->size));
    }
    segments_.push_back(s);
  }
}

}  // namespace dlbench::formats
