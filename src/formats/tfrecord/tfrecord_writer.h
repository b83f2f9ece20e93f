// TFRecord files of DLIO's Example, one record per sample, plus the DALI index when the spec
// names one.
#pragma once

#include <cstdint>

#include "formats/format.h"
#include "formats/io/slice_layout.h"

namespace dlbench::formats {

// Part 0: fixed-size records, framed and CRC'd one by one; part 1 (when spec.dali_index_path is
// set): the DALI index lines "<k·R> <R>\n", whose offsets are computed in closed form.
class TfrecordLayout final : public SliceLayout {
 public:
  std::vector<std::string> parts(const FileSpec& spec) const override;
  ByteRange range(const FileSpec& spec, std::size_t part, std::int64_t first,
                  std::int64_t end) const override;
  void stream(const FileSpec& spec, std::size_t part, std::int64_t first, std::int64_t end,
              const dataset::ContentGenerator& content, ByteSink& out) const override;
};

class TfrecordWriter final : public FormatWriter {
 public:
  Bytes file_size(const FileSpec& spec) const override {
    return TfrecordLayout().part_size(spec, 0);
  }
  WriteResult write(storage::Env& env, const FileSpec& spec,
                    const dataset::ContentGenerator& content,
                    std::span<std::byte> buffer) const override {
    return WriteAllParts(env, TfrecordLayout(), spec, content, buffer);
  }
};

// Byte offset of line `k` in a DALI index of records of `record_bytes` each: the lines
// "<k·record_bytes> <record_bytes>\n" of all earlier records.
Bytes DaliIndexOffset(std::uint64_t k, Bytes record_bytes);

}  // namespace dlbench::formats
