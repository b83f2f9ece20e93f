// TFRecord files of DLIO's Example, one record per sample, plus the DALI index when the spec
// names one (reference formats.md §7).
#pragma once

#include "formats/format.h"

namespace dlbench::formats {

class TfrecordWriter final : public FormatWriter {
 public:
  Bytes file_size(const FileSpec& spec) const override;
  WriteResult write(storage::Env& env, const FileSpec& spec,
                    const dataset::ContentGenerator& content,
                    std::span<std::byte> buffer) const override;
};

}  // namespace dlbench::formats
