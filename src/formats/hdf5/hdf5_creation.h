// How dlbench lays out an HDF5 dataset, shared by the serial writer (formats/hdf5/hdf5_writer.cpp)
// and the parallel shared-file writer (workflow/shared_hdf5_writer.cpp), so that both produce the
// same file: contiguous unless hdf5.chunk_dims, gzip or hdf5.max_shape ask for chunks; one sample
// per chunk when chunking is needed but not configured.
#pragma once

#include <hdf5.h>

#include <string>
#include <vector>

#include "formats/format.h"
#include "formats/hdf5/hdf5_handles.h"

namespace dlbench::formats::hdf5 {

// Throws Error(kUsage) unless spec.compression is none or gzip (lzf needs h5py's filter 32000,
// which libhdf5 lacks).
void CheckCompression(const FileSpec& spec);

// The dataset creation property list for a dataset of `shape` in the file at `path` (named in
// errors). Throws Error(kUsage) when hdf5.chunk_dims does not have the dataset's rank.
Handle CreationProperties(const Lock& lock, const FileSpec& spec, const std::vector<hsize_t>& shape,
                          const std::string& path);

}  // namespace dlbench::formats::hdf5
