// Reads .npy files of shape (*sample_dims, n). The header is parsed once at open (version 1.0 to
// 3.0, any padding, either quote style; fortran_order True is rejected). Read unit: the sample's
// contiguous range when n = 1, else the whole array (see sample_last_array.h). With
// FileReadOptions::direct the file is opened with O_DIRECT and every read is rounded out to whole
// 4 KiB blocks (direct_file.h): the open reads block 0 for the header, a sample the blocks
// covering its read unit, and both report those blocks.
#pragma once

#include "formats/format.h"

namespace dlbench::formats {

class NpyReader final : public FormatReader {
 public:
  std::unique_ptr<FileReader> open(storage::Env& env, const FileSpec& spec,
                                   const FileReadOptions& options) const override;
};

}  // namespace dlbench::formats
