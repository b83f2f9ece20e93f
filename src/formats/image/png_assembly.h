// Assembled png files (dataset.content.encoding: assembled; docs/formats.md "Assembled image
// files"): a valid 8-bit grayscale png of the file's size put together from pools of deflated
// noise rows (png_segment_pool.h) at the cost of copying bytes, instead of deflating the file's
// own pixels (PIL's settings cost ms per 568 x 568 image). The file: signature, IHDR, a tEXt
// chunk "dlbench" holding 8 bytes of the file's content in hex (so that every file differs),
// one IDAT chunk — the zlib header, segments chosen by the file's seeded generator (main-pool
// segments of kPngSegmentRows(width) rows, then one segment of each power-of-two row count the
// height's remainder needs), a final empty fixed-Huffman block, the adler32 of the inflated rows
// from adler32_combine — whose CRC comes from crc32_combine of the segments' CRCs, and IEND.
#pragma once

#include <array>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <vector>

#include "dataset/content.h"
#include "formats/format.h"
#include "formats/image/image_writing.h"
#include "formats/image/png_segment_pool.h"

namespace dlbench::formats {

// Inflated bytes of a main-pool segment at most (a power-of-two number of rows, at least one):
// 32 KB, so that a dynamic-Huffman block's header (~45 bytes) adds 0.1-0.3 % as in a per-file
// png; the main pool holds kPngMainSegments of them (at most 512 KB, built once per width and
// rank), the pool of each smaller power of two rows kPngTailSegments.
inline constexpr std::int64_t kPngSegmentBytes = 32768;
inline constexpr int kPngMainSegments = 16;
inline constexpr int kPngTailSegments = 4;
// Widths whose pools a writer keeps (DLIO varies image sizes with record_length_bytes_stdev);
// the least recently used goes first.
inline constexpr std::size_t kPngCachedWidths = 8;

// Rows per main-pool segment for images `width` pixels wide.
std::int64_t PngSegmentRows(std::int64_t width);

// The pools of one width: pool(k) has segments of 2^k rows, k = 0 .. levels() - 1, the last
// being the main pool. Immutable once built.
class PngWidthPools {
 public:
  PngWidthPools(const dataset::ContentGenerator& content, std::int64_t width);
  std::int64_t width() const { return width_; }
  int levels() const { return static_cast<int>(pools_.size()); }
  const PngSegmentPool& pool(int k) const { return *pools_[static_cast<std::size_t>(k)]; }
  const PngSegmentPool& main() const { return *pools_.back(); }

 private:
  std::int64_t width_;
  std::vector<std::unique_ptr<const PngSegmentPool>> pools_;
};

// The pools a writer keeps between files: those of up to kPngCachedWidths widths of the last
// content generator asked for. Thread-safe; what get() returns stays valid while held.
class PngPoolCache {
 public:
  std::shared_ptr<const PngWidthPools> get(const dataset::ContentGenerator& content,
                                           std::int64_t width);

 private:
  std::mutex mutex_;
  std::optional<dataset::ContentGenerator> content_;
  std::list<std::shared_ptr<const PngWidthPools>> pools_;  // most recently used first
};

// Creates spec.path through `env` and writes the assembled png of `shape` into it through
// `buffer`, fsyncs it when spec.fsync, and closes it. Throws Error(kUsage) when the image data
// would not fit one IDAT chunk (2^31 - 1 bytes; use per_file), what the file throws.
WriteResult WriteAssembledPng(storage::Env& env, const FileSpec& spec, ImageShape shape,
                              const dataset::ContentGenerator& content, PngPoolCache& pools,
                              std::span<std::byte> buffer);

}  // namespace dlbench::formats
