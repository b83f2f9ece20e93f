// .csv files as DLIO writes them with pandas (csv_text.h): n lines of prod(sample_dims)
// values. DLIO repeats one random row for every line; dlbench writes each sample's own values
// (sample k is the payload [k·S, (k+1)·S), see format.h), so rows differ as in every other
// format. With compression gzip the text is written as one gzip stream at
// dataset.compression_level, which pandas reads from a ".csv.gz" name (dataset/layout.h). With
// dataset.content.encoding: assembled, the lines are put together from pre-formatted (and with
// gzip pre-deflated) values (csv_assembly.h).
#pragma once

#include "formats/csv/csv_assembly.h"
#include "formats/format.h"

namespace dlbench::formats {

class CsvWriter final : public FormatWriter {
 public:
  // Throws Error(kUsage): the length of a value's text depends on the value.
  Bytes file_size(const FileSpec& spec) const override;
  WriteResult write(storage::Env& env, const FileSpec& spec,
                    const dataset::ContentGenerator& content,
                    std::span<std::byte> buffer) const override;

 private:
  // dataset.content.encoding: assembled — the pools of the dataset's element type and
  // compression, shared by the threads writing through this writer.
  mutable CsvPoolCache pools_;
};

}  // namespace dlbench::formats
