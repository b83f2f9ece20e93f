// What the jpeg and png writers share: the image a FileSpec describes, its raw rows taken from
// the content generator a block at a time, and the file they are encoded into.
//
// DLIO writes one image per file, an 8-bit grayscale image of the sample's shape;
// dlbench's image files hold exactly one sample (config validation refuses
// num_samples_per_file > 1). The image's pixels are the file's sample payload [0, height · width).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "formats/format.h"
#include "formats/io/buffered_appender.h"

namespace dlbench::formats {

struct ImageShape {
  std::int64_t height = 0;  // sample_dims[0]
  std::int64_t width = 0;   // sample_dims[1], 1 for a one-dimensional sample
};

// The image's height and width. Throws Error(kUsage) when a side is more than `max_side` pixels
// (the format's limit, named `format` in the message), InternalError unless the file holds one
// sample of 1 or 2 dimensions of a one-byte dtype (config::Validate's rules for images).
ImageShape ImageShapeOf(const FileSpec& spec, std::int64_t max_side, const char* format);

// Hands out the image's rows in blocks, staged in the front half of the writer's buffer (or in
// a buffer of its own when half the writer's buffer is smaller than a row); the other half is
// left for the encoded output.
class RowBlocks {
 public:
  RowBlocks(const FileSpec& spec, ImageShape shape, const dataset::ContentGenerator& content,
            std::span<std::byte> buffer);

  // The part of the writer's buffer left for encoded bytes (never empty).
  std::span<std::byte> output() const { return output_; }
  // Fills and returns the next block of whole rows; empty after the last row.
  std::span<std::byte> next();
  std::int64_t rows_in(std::span<std::byte> block) const {
    return static_cast<std::int64_t>(block.size()) / shape_.width;
  }
  // The most rows one block holds.
  std::int64_t max_rows() const { return static_cast<std::int64_t>(rows_.size()) / shape_.width; }

 private:
  const dataset::ContentGenerator& content_;
  FileIndex file_;
  ImageShape shape_;
  std::span<std::byte> rows_;
  std::span<std::byte> output_;
  std::vector<std::byte> own_;  // when the writer's buffer cannot hold a row
  std::int64_t done_ = 0;       // rows handed out
};

// Encodes every block of `rows` into `out`. Throws what `out` throws; Error(kInternal) for a
// codec failure.
using ImageEncoder = void (*)(const std::string& path, ImageShape shape, RowBlocks& rows,
                              BufferedAppender& out);

// Creates spec.path through `env`, encodes the image into it with `encode` (the image rows and
// the output sharing `buffer`), fsyncs it when spec.fsync, and closes it.
WriteResult WriteImage(storage::Env& env, const FileSpec& spec, ImageShape shape,
                       const dataset::ContentGenerator& content, std::span<std::byte> buffer,
                       ImageEncoder encode);

}  // namespace dlbench::formats
