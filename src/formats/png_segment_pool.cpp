#include "formats/png_segment_pool.h"

#include <zlib.h>

#include <string>

#include "dataset/content.h"
#include "formats/png_row_filter.h"
#include "formats/png_writer.h"
#include "util/error.h"

namespace dlbench::formats {
namespace {

[[noreturn]] void ZlibFailure(const char* what, int code) {
  throw Error(ExitCode::kInternal, std::string("png segment pool: zlib ") + what + " failed (" +
                                       std::to_string(code) + ")");
}

}  // namespace

PngSegmentPool::PngSegmentPool(const dataset::ContentGenerator& content, std::uint64_t pool_file,
                               std::int64_t width, std::int64_t rows, int count)
    : rows_(rows) {
  if (width < 1 || rows < 1 || count < 1) {
    throw InternalError("png segment pool: at least one pixel, row and segment");
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
  z_stream z{};
  int rc = deflateInit2(&z, kPngZlibLevel, Z_DEFLATED, -15, 9, Z_FILTERED);  // raw deflate
  if (rc != Z_OK) ZlibFailure("deflateInit2", rc);
  bytes_.resize(deflateBound(&z, static_cast<uLong>(raw.size())) +
                64 * static_cast<std::size_t>(count));
  segments_.reserve(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) {
    PngSegment s;
    s.begin = z.total_out;
    s.inflated = segment_bytes;
    auto* in = reinterpret_cast<Bytef*>(raw.data() + static_cast<std::size_t>(i) * segment_bytes);
    s.adler = static_cast<std::uint32_t>(adler32(1, in, static_cast<uInt>(segment_bytes)));
    z.next_in = in;
    z.avail_in = static_cast<uInt>(segment_bytes);
    z.next_out = reinterpret_cast<Bytef*>(bytes_.data() + z.total_out);
    z.avail_out = static_cast<uInt>(bytes_.size() - z.total_out);
    rc = deflate(&z, Z_FULL_FLUSH);
    if (rc != Z_OK || z.avail_in != 0 || z.avail_out == 0) {
      deflateEnd(&z);
      ZlibFailure("deflate", rc);
    }
    s.size = z.total_out - s.begin;
    s.crc = static_cast<std::uint32_t>(crc32(
        0, reinterpret_cast<const Bytef*>(bytes_.data() + s.begin), static_cast<uInt>(s.size)));
    s.crc_op = crc32_combine_gen(static_cast<z_off_t>(s.size));
    segments_.push_back(s);
  }
  bytes_.resize(z.total_out);
  deflateEnd(&z);
}

}  // namespace dlbench::formats
