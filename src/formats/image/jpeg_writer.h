// .jpeg files as DLIO writes them with PIL: one 8-bit grayscale (PIL mode "L")
// baseline JPEG per file, quality 75, of the sample's shape (image_writing.h), encoded with
// libjpeg-turbo row block by row block so that memory stays within the writer's buffer — or,
// with dataset.content.encoding: assembled, put together from encoded noise (jpeg_assembly.h).
#pragma once

#include "formats/format.h"
#include "formats/image/jpeg_assembly.h"

namespace dlbench::formats {

class JpegWriter final : public FormatWriter {
 public:
  // Throws Error(kUsage): the size of a JPEG depends on its pixels.
  Bytes file_size(const FileSpec& spec) const override;
  WriteResult write(storage::Env& env, const FileSpec& spec,
                    const dataset::ContentGenerator& content,
                    std::span<std::byte> buffer) const override;

 private:
  // dataset.content.encoding: assembled — the pools built for the content generator, shared by
  // the threads writing through this writer.
  mutable JpegPoolCache pools_;
};

// PIL's default JPEG quality.
inline constexpr int kJpegQuality = 75;

}  // namespace dlbench::formats
