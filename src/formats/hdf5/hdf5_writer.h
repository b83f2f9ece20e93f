// HDF5 files as DLIO writes them: datasets records_0..k-1 of shape
// (n, *sample dims) and labels (n,) int64 zeros; contiguous unless chunk_dims, gzip or max_shape
// ask for chunking. Written through storage::Env (the Env driver, hdf5_env_driver.h): HDF5's
// data and metadata writes, its reads back and the final truncation; library-version bounds
// [v18, v110]. lzf is rejected (its filter is not in libhdf5).
#pragma once

#include "formats/format.h"

namespace dlbench::formats {

class Hdf5Writer final : public FormatWriter {
 public:
  // Throws Error(kUsage): the metadata size is decided by the HDF5 library.
  Bytes file_size(const FileSpec& spec) const override;
  WriteResult write(storage::Env& env, const FileSpec& spec,
                    const dataset::ContentGenerator& content,
                    std::span<std::byte> buffer) const override;
};

}  // namespace dlbench::formats
