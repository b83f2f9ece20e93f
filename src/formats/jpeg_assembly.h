// Assembled jpeg files (dataset.content.encoding: assembled; docs/formats.md "Assembled jpeg
// files"): a valid baseline jpeg of the file's size put together from pools of encoded noise
// (jpeg_segment_pool.h) at the cost of copying bytes, instead of encoding the file's own pixels
// (1.5 ms per 568 x 568 image). The header is the pool's with the file's height and width and a
// COM marker holding 8 bytes of the file's content (so that every file differs); the
// image's blocks, in raster order, are restart intervals of kAssemblyMcus blocks chosen by the
// file's seeded generator, without repeats inside a file until the pool is used up, then a
// shorter last interval from a pool of that length; RST0..RST7 between them, EOI at the end.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <span>

#include "dataset/content.h"
#include "formats/format.h"
#include "formats/image_writing.h"
#include "formats/jpeg_segment_pool.h"

namespace dlbench::formats {

// Blocks per restart interval: 32 (a 256-pixel run) keeps the markers to 0.2 % of a noise
// file; the main pool holds kAssemblySegments intervals of it (8,192 blocks, 524,288 pixels,
// ~290 KB encoded: a few ms, once per rank) and a tail pool kAssemblyTailSegments intervals of
// each shorter length a file ends with (at most 1,984 blocks each). Decoding costs ~8 % more
// instructions than a file without restart markers (callgrind, 568 x 568), the same with 64-block
// intervals: libjpeg-turbo's decoder leaves its fast Huffman path whenever a restart interval is
// set, however long.
inline constexpr int kAssemblyMcus = 32;
inline constexpr int kAssemblySegments = 256;
inline constexpr int kAssemblyTailSegments = 64;

// The pools of one content generator: the main pool, built by the constructor, and one pool
// per last-interval length, built on first use. Thread-safe; what pool() and tail() return lives
// as long as this object.
class JpegPools {
 public:
  explicit JpegPools(const dataset::ContentGenerator& content);

  const dataset::ContentGenerator& content() const { return content_; }
  const JpegSegmentPool& pool() const { return main_; }
  // The pool of intervals of `mcus` blocks, 1 <= mcus < kAssemblyMcus.
  const JpegSegmentPool& tail(int mcus);

 private:
  dataset::ContentGenerator content_;
  JpegSegmentPool main_;
  std::mutex mutex_;
  std::array<std::unique_ptr<const JpegSegmentPool>, kAssemblyMcus> tails_;  // by length
};

// The pools a writer keeps between files: those of the last content generator asked for
// (a writer serves one dataset at a time). Thread-safe.
class JpegPoolCache {
 public:
  std::shared_ptr<JpegPools> get(const dataset::ContentGenerator& content);

 private:
  std::mutex mutex_;
  std::shared_ptr<JpegPools> pools_;
};

// Creates spec.path through `env` and writes the assembled jpeg of `shape` into it through
// `buffer`, fsyncs it when spec.fsync, and closes it. Throws what the file throws.
WriteResult WriteAssembledJpeg(storage::Env& env, const FileSpec& spec, ImageShape shape,
                               JpegPools& pools, std::span<std::byte> buffer);

}  // namespace dlbench::formats
