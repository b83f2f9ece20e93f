// Readers of indexed_binary files. Both load the two index files at open and validate them
// (exactly n entries, offset + size within the data file, size = the expected sample size).
// IndexedBinaryReader: one positional read of the sample per read (read unit: the sample).
// MmapIndexedBinaryReader: memory-maps the data file and copies the sample out of the mapping;
// the storage traffic happens in page faults, so the bytes reported are the sample bytes.
#pragma once

#include "formats/format.h"

namespace dlbench::formats {

class IndexedBinaryReader final : public FormatReader {
 public:
  std::unique_ptr<FileReader> open(storage::Env& env, const FileSpec& spec,
                                   const ReadOptions& options) const override;
};

class MmapIndexedBinaryReader final : public FormatReader {
 public:
  std::unique_ptr<FileReader> open(storage::Env& env, const FileSpec& spec,
                                   const ReadOptions& options) const override;
};

}  // namespace dlbench::formats
