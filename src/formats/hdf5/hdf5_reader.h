// Reads DLIO HDF5 files: opens the file and its records_j datasets once (checking type and
// shape), then reads sample k as one hyperslab per dataset into consecutive parts of the
// caller's buffer, so a sample is k datasets × the per-dataset sample bytes. Files written by
// DLIO ≤ v2.0 (one dataset named `records`) are accepted when num_dset_per_record is 1.
// HDF5 reads through storage::Env (the Env driver, hdf5_env_driver.h), one thread at a time
// (hdf5::Lock): open_bytes() and read_sample() report what HDF5 read from storage, metadata
// included, not the nominal sample size.
#pragma once

#include "formats/format.h"

namespace dlbench::formats {

class Hdf5Reader final : public FormatReader {
 public:
  std::unique_ptr<FileReader> open(storage::Env& env, const FileSpec& spec,
                                   const FileReadOptions& options) const override;
};

}  // namespace dlbench::formats
