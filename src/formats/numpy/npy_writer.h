// .npy files as DLIO writes them with np.save: one array of shape (*sample_dims, n), C order,
// sample axis last.
#pragma once

#include <cstdint>
#include <vector>

#include "formats/format.h"
#include "formats/io/slice_layout.h"

namespace dlbench::formats {

// One part: the header, then the payload in file order; a slice of the samples owns payload
// bytes [first·S, end·S), and the slice from sample 0 the header too.
class NpyLayout final : public SliceLayout {
 public:
  std::vector<std::string> parts(const FileSpec& spec) const override { return {spec.path}; }
  ByteRange range(const FileSpec& spec, std::size_t part, std::int64_t first,
                  std::int64_t end) const override;
  void stream(const FileSpec& spec, std::size_t part, std::int64_t first, std::int64_t end,
              const dataset::ContentGenerator& content, ByteSink& out) const override;
};

class NpyWriter final : public FormatWriter {
 public:
  Bytes file_size(const FileSpec& spec) const override { return NpyLayout().part_size(spec, 0); }
  WriteResult write(storage::Env& env, const FileSpec& spec,
                    const dataset::ContentGenerator& content,
                    std::span<std::byte> buffer) const override {
    return WriteAllParts(env, NpyLayout(), spec, content, buffer);
  }
};

// The array shape DLIO stores for a file: (*sample_dims, samples).
std::vector<std::int64_t> SampleLastShape(const FileSpec& spec);

}  // namespace dlbench::formats
