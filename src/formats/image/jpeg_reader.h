// Reads .jpeg files as DLIO's image reader does (np.asarray(PIL.Image.open(f))): the whole file
// is read and decoded with libjpeg-turbo for every sample (whole_file_reader.h), which is the
// per-sample CPU cost of a real input pipeline. The image must be 8-bit grayscale of the
// sample's shape. Truncated or corrupt data that the decoder notices (libjpeg errors and
// warnings such as "Premature end of JPEG file") is an Error(kIo) naming the file; JPEG has no
// checksum, so damage inside the entropy-coded data can decode to other pixels unnoticed, as
// with PIL. O_DIRECT reads the 4 KiB blocks covering the file.
#pragma once

#include "formats/format.h"

namespace dlbench::formats {

class JpegReader final : public FormatReader {
 public:
  std::unique_ptr<FileReader> open(storage::Env& env, const FileSpec& spec,
                                   const FileReadOptions& options) const override;
};

}  // namespace dlbench::formats
