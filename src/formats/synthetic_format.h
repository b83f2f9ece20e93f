// The synthetic format: the file holds its decimal index as text and
// reading performs no I/O (0 bytes), measuring the pipeline without storage.
#pragma once

#include "formats/format.h"

namespace dlbench::formats {

class SyntheticWriter final : public FormatWriter {
 public:
  Bytes file_size(const FileSpec& spec) const override;
  WriteResult write(storage::Env& env, const FileSpec& spec,
                    const dataset::ContentGenerator& content,
                    std::span<std::byte> buffer) const override;
};

class SyntheticReader final : public FormatReader {
 public:
  std::unique_ptr<FileReader> open(storage::Env& env, const FileSpec& spec,
                                   const FileReadOptions& options) const override;
};

}  // namespace dlbench::formats
