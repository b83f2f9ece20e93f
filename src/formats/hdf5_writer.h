// HDF5 files as DLIO writes them (reference formats.md §8.1): datasets records_0..k-1 of shape
// (n, *sample dims) and labels (n,) int64 zeros; contiguous unless chunk_dims, gzip or max_shape
// ask for chunking. Written through HDF5's sec2 driver, not through storage::Env (HDF5 owns its
// I/O); library-version bounds [v18, v110]. lzf is rejected (its filter is not in libhdf5).
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
