// .png files as DLIO writes them with PIL: one 8-bit grayscale (color type 0)
// non-interlaced PNG per file of the sample's shape (image_writing.h), with PIL's encoder settings
// (its row filters, zlib level 6, memLevel 9, Z_FILTERED), written with libpng row by row so that
// memory stays within the writer's buffer — or, with dataset.content.encoding: assembled, put
// together from deflated noise rows (png_assembly.h).
#pragma once

#include "formats/format.h"
#include "formats/image/png_assembly.h"

namespace dlbench::formats {

class PngWriter final : public FormatWriter {
 public:
  // Throws Error(kUsage): the size of a PNG depends on how its pixels compress.
  Bytes file_size(const FileSpec& spec) const override;
  WriteResult write(storage::Env& env, const FileSpec& spec,
                    const dataset::ContentGenerator& content,
                    std::span<std::byte> buffer) const override;

 private:
  // dataset.content.encoding: assembled — the pools built for the content generator's widths,
  // shared by the threads writing through this writer.
  mutable PngPoolCache pools_;
};

// zlib level of PIL's PNG encoder (compress_level's default, zlib's Z_DEFAULT_COMPRESSION).
inline constexpr int kPngZlibLevel = 6;

// Largest side dlbench writes and reads (libpng's own default limit is 1,000,000).
inline constexpr std::int64_t kPngMaxSide = 1000000;

}  // namespace dlbench::formats
