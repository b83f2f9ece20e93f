// Assembled jpeg files (dataset.content.encoding: assembled; docs/formats.md "Assembled jpeg
// files"): a valid baseline jpeg of the file's size put together from pools of encoded noise
// (jpeg_segment_pool.h) at the cost of copying bytes, instead of encoding the file's own pixels
// (1.5 ms per 568 x 568 image). The header is the pool's with the file's height and width and a
// COM marker holding 8 bytes of the file's content (so that every file differs); the image's
// blocks, in raster order, are segments of kJpegSegmentBlocks blocks chosen by the file's seeded
// generator, without repeats inside a file until the pool is used up, then a shorter last
// segment from a pool of that length, and EOI. No restart markers: the scan is what libjpeg
// writes for an image, and decodes at the same cost.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <span>

#include "dataset/content.h"
#include "formats/format.h"
#include "formats/image/image_writing.h"
#include "formats/image/jpeg_segment_pool.h"

namespace dlbench::formats {

// Blocks per segment: 32 (a 256-pixel run, ~1.1 KB of entropy-coded data); the main pool holds
// kJpegSegments of them (8,192 blocks, ~290 KB encoded: a few ms, once per rank) and a tail pool
// kJpegTailSegments segments of each shorter length a file ends with (built on first use).
inline constexpr int kJpegSegmentBlocks = 32;
inline constexpr int kJpegSegments = 256;
inline constexpr int kJpegTailSegments = 64;

// The pools of one content generator: the main pool, built by the constructor, and one pool
// per last-segment length, built on first use. Thread-safe; what pool() and tail() return lives
// as long as this object.
class JpegPools {
 public:
  explicit JpegPools(const dataset::ContentGenerator& content);

  const dataset::ContentGenerator& content() const { return content_; }
  const JpegSegmentPool& pool() const { return main_; }
  // The pool of segments of `blocks` blocks, 1 <= blocks < kJpegSegmentBlocks.
  const JpegSegmentPool& tail(int blocks);

 private:
  dataset::ContentGenerator content_;
  JpegSegmentPool main_;
  std::mutex mutex_;
  std::array<std::unique_ptr<const JpegSegmentPool>, kJpegSegmentBlocks> tails_;  // by length
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
