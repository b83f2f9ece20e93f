// Readers of indexed_binary files. Both load the two index files at open and validate them
// (exactly n entries, offset + size within the data file, size = the expected sample size).
// IndexedBinaryReader: one positional read of the sample per read (read unit: the sample); with
// FileReadOptions::direct the data file is read with O_DIRECT, the read rounded out to the 4 KiB
// blocks covering the sample and those blocks reported (direct_file.h); indexes stay buffered.
// MmapIndexedBinaryReader: memory-maps the data file through the Env (Env::open_mapped) and copies
// the sample out of the mapping in one read_at, which the Env's wrappers count, throttle and fail;
// the storage traffic happens in page faults, so the bytes reported are the sample bytes. A file
// truncated while it is mapped is an IoError naming it (exit 3, or a skipped sample with
// reader.on_error: skip), not a SIGBUS: mapped_file.h says how, and why not by fstat. O_DIRECT has
// no meaning for a mapping: FileReadOptions::direct is refused.
#pragma once

#include "formats/format.h"

namespace dlbench::formats {

class IndexedBinaryReader final : public FormatReader {
 public:
  std::unique_ptr<FileReader> open(storage::Env& env, const FileSpec& spec,
                                   const FileReadOptions& options) const override;
};

class MmapIndexedBinaryReader final : public FormatReader {
 public:
  std::unique_ptr<FileReader> open(storage::Env& env, const FileSpec& spec,
                                   const FileReadOptions& options) const override;
};

}  // namespace dlbench::formats
