// Reads .npz archives: the zip directory (EOCD, ZIP64 EOCD, central directory) and the x.npy
// header are parsed once at open; then a sample is read as in npy_reader.h from the stored
// member. Deflated members (savez_compressed) are inflated from their start for every sample:
// the read unit is the compressed member up to the end of the array. CRC-32 is not verified.
// With FileReadOptions::direct every read (directory walk included) goes through O_DIRECT in whole
// 4 KiB blocks, streamed pieces end on block boundaries, and the blocks are reported.
#pragma once

#include "formats/format.h"

namespace dlbench::formats {

class NpzReader final : public FormatReader {
 public:
  std::unique_ptr<FileReader> open(storage::Env& env, const FileSpec& spec,
                                   const FileReadOptions& options) const override;
};

}  // namespace dlbench::formats
