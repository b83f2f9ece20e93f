// indexed_binary files (reference formats.md §9): the samples back to back with no header, plus
// `<file>.off.idx` and `<file>.sz.idx` holding one uint64 little-endian offset and size per
// sample. Offsets are i·S for every i (DLIO restarts them per chunk, defect D19).
#pragma once

#include <cstdint>

#include "formats/format.h"

namespace dlbench::formats {

class IndexedBinaryWriter final : public FormatWriter {
 public:
  Bytes file_size(const FileSpec& spec) const override;
  WriteResult write(storage::Env& env, const FileSpec& spec,
                    const dataset::ContentGenerator& content,
                    std::span<std::byte> buffer) const override;
};

// The samples one of `ranks` ranks writes of a shared file of `samples` samples: rank r owns
// [r·q + min(r, rem), …) of length q + (r < rem), with q = samples / ranks, rem = samples % ranks.
struct SampleSlice {
  std::int64_t first = 0;
  std::int64_t count = 0;
};
SampleSlice SharedFileSlice(std::int64_t samples, int ranks, int rank);

}  // namespace dlbench::formats
