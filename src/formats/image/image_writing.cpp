#include "formats/image/image_writing.h"

#include <algorithm>
#include <string>

#include "dataset/content.h"
#include "storage/file.h"
#include "util/error.h"

namespace dlbench::formats {

ImageShape ImageShapeOf(const FileSpec& spec, std::int64_t max_side, const char* format) {
  // config::Validate makes image samples uint8, one per file, of at most 2 dimensions: a spec
  // without them never came from a validated configuration.
  if (spec.itemsize() != 1) {
    throw InternalError(std::string(format) + " images hold 8-bit pixels, not " + spec.dtype);
  }
  if (spec.samples != 1) {
    throw InternalError(std::string(format) + " files hold one image, not " +
                        std::to_string(spec.samples) + " samples");
  }
  if (spec.sample_dims.empty() || spec.sample_dims.size() > 2) {
    throw InternalError(std::string(format) + " images have 1 or 2 dimensions, got " +
                        std::to_string(spec.sample_dims.size()));
  }
  const ImageShape shape{spec.sample_dims[0],
                         spec.sample_dims.size() > 1 ? spec.sample_dims[1] : 1};
  if (shape.height < 1 || shape.width < 1 || shape.height > max_side || shape.width > max_side) {
    throw UsageError(std::string(format) + " images are 1 to " + std::to_string(max_side) +
                     " pixels per side, the sample is " + std::to_string(shape.height) + " x " +
                     std::to_string(shape.width));
  }
  return shape;
}

RowBlocks::RowBlocks(const FileSpec& spec, ImageShape shape,
                     const dataset::ContentGenerator& content, std::span<std::byte> buffer)
    : content_(content), file_(spec.file_index), shape_(shape) {
  const auto width = static_cast<std::size_t>(shape.width);
  const std::size_t half = buffer.size() / 2;
  if (half >= width) {
    rows_ = buffer.first(half - half % width);
    output_ = buffer.subspan(half);
  } else {
    own_.resize(width);
    rows_ = own_;
    output_ = buffer;
  }
  if (output_.empty()) throw InternalError("image writer: empty buffer");
}

std::span<std::byte> RowBlocks::next() {
  const std::int64_t rows =
      std::min(shape_.height - done_, static_cast<std::int64_t>(rows_.size()) / shape_.width);
  const std::span<std::byte> block = rows_.first(static_cast<std::size_t>(rows * shape_.width));
  content_.fill(file_, static_cast<Bytes>(done_ * shape_.width), block);
  done_ += rows;
  return block;
}

WriteResult WriteImage(storage::Env& env, const FileSpec& spec, ImageShape shape,
                       const dataset::ContentGenerator& content, std::span<std::byte> buffer,
                       ImageEncoder encode) {
  RowBlocks rows(spec, shape, content, buffer);
  auto file = env.create(spec.path);
  {
    BufferedAppender out(*file, rows.output());
    encode(spec.path, shape, rows, out);
    out.flush();
  }
  return FinishDataFile(*file, spec);
}

}  // namespace dlbench::formats
