// indexed_binary files: the samples back to back with no header, plus
// `<file>.off.idx` and `<file>.sz.idx` holding one uint64 little-endian offset and size per
// sample. Offsets are i·S for every i (DLIO restarts them per chunk, defect D19).
#pragma once

#include "formats/format.h"
#include "formats/io/slice_layout.h"

namespace dlbench::formats {

// Parts: the samples, the offsets index, the sizes index (8 bytes per sample in each).
class IndexedBinaryLayout final : public SliceLayout {
 public:
  std::vector<std::string> parts(const FileSpec& spec) const override {
    return {spec.path, spec.offsets_index(), spec.sizes_index()};
  }
  ByteRange range(const FileSpec& spec, std::size_t part, std::int64_t first,
                  std::int64_t end) const override;
  void stream(const FileSpec& spec, std::size_t part, std::int64_t first, std::int64_t end,
              const dataset::ContentGenerator& content, ByteSink& out) const override;
};

class IndexedBinaryWriter final : public FormatWriter {
 public:
  Bytes file_size(const FileSpec& spec) const override {
    return IndexedBinaryLayout().part_size(spec, 0);
  }
  WriteResult write(storage::Env& env, const FileSpec& spec,
                    const dataset::ContentGenerator& content,
                    std::span<std::byte> buffer) const override {
    return WriteAllParts(env, IndexedBinaryLayout(), spec, content, buffer);
  }
};

}  // namespace dlbench::formats
