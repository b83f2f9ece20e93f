// Reads .png files as DLIO's image reader does (np.asarray(PIL.Image.open(f))): the whole file
// is read and decoded with libpng for every sample (whole_file_reader.h). The image must be
// 8-bit grayscale (color type 0) of the sample's shape; interlaced images are accepted. libpng
// checks every chunk's CRC and zlib its Adler-32, so truncated or corrupt files are an
// Error(kIo) naming the file. O_DIRECT reads the 4 KiB blocks covering the file.
#pragma once

#include "formats/format.h"

namespace dlbench::formats {

class PngReader final : public FormatReader {
 public:
  std::unique_ptr<FileReader> open(storage::Env& env, const FileSpec& spec,
                                   const FileReadOptions& options) const override;
};

}  // namespace dlbench::formats
