// .npy files as DLIO writes them with np.save: one array of shape (*sample_dims, n), C order,
// sample axis last (reference formats.md §5.2).
#pragma once

#include "formats/format.h"

namespace dlbench::formats {

class NpyWriter final : public FormatWriter {
 public:
  Bytes file_size(const FileSpec& spec) const override;
  WriteResult write(storage::Env& env, const FileSpec& spec,
                    const dataset::ContentGenerator& content,
                    std::span<std::byte> buffer) const override;
};

// The array shape DLIO stores for a file: (*sample_dims, samples).
std::vector<std::int64_t> SampleLastShape(const FileSpec& spec);

}  // namespace dlbench::formats
