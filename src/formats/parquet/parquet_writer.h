// Parquet files as MLCommons DLIO's parquet generator shapes them (one row per sample, the
// columns of dataset.parquet.columns, row groups of parquet.row_group_size rows), written by hand
// in the subset parquet_layout.h describes. Memory: one page (about 1 MiB, or one row when a row
// is larger) plus its compressed copy, reused for every page of the file.
#pragma once

#include "formats/format.h"

namespace dlbench::formats {

class ParquetWriter final : public FormatWriter {
 public:
  // Exact for uncompressed files (the metadata is a function of the spec); Error(kUsage) for
  // compressed files, whose size depends on the content.
  Bytes file_size(const FileSpec& spec) const override;
  WriteResult write(storage::Env& env, const FileSpec& spec,
                    const dataset::ContentGenerator& content,
                    std::span<std::byte> buffer) const override;
};

}  // namespace dlbench::formats
