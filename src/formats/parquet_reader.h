// Reader of the Parquet files parquet_writer.h writes (and of any file in the same subset).
//
// Open: reads the tail (footer length, "PAR1", the footer and, usually in the same read, the
// offset indexes before it) and the leading "PAR1"; decodes the footer and checks it against the
// spec: schema, row count, row groups, each column chunk's type, codec, path, value count and
// byte range, and every page location. A file without offset indexes is refused (exit 3): rows
// are found through them, as a reader selecting rows does.
// Sample k (a row): for each column with `read: true`, one read of the data page holding the row
// (its header and body, the bytes a row-selecting reader fetches), the page header decoded and
// checked, the body gunzipped when the codec is GZIP, the repetition/definition levels checked,
// and the row's PLAIN values copied (8/16-bit integers narrowed from INT32) into the sample.
// The sample holds the read columns back to back. Bytes reported: the pages read, or with
// O_DIRECT the 4 KiB blocks fetched.
// Every inconsistency is Error(kIo) naming the file, the column and the offset.
#pragma once

#include "formats/format.h"

namespace dlbench::formats {

class ParquetReader final : public FormatReader {
 public:
  std::unique_ptr<FileReader> open(storage::Env& env, const FileSpec& spec,
                                   const FileReadOptions& options) const override;
};

}  // namespace dlbench::formats
