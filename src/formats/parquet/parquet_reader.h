// Reader of the Parquet files parquet_writer.h writes, and of the same columns as pyarrow (which
// MLCommons DLIO calls) and other writers lay them out (parquet_schema.h).
//
// Open: reads the tail (footer length, "PAR1", the footer and, usually in the same read, the
// offset indexes before it) and the leading "PAR1"; decodes the footer and checks it against the
// spec: schema, row count, row groups, each column chunk's type, codec, path, value count and
// byte range, and every page location. Chunks without an offset index have their pages found by
// scanning page headers when read (parquet_pages.h).
// Sample k (a row): for each column with `read: true`, one read of the data page holding the row
// (its header and body, the bytes a row-selecting reader fetches), the page header decoded and
// checked, the body decompressed by the chunk's codec, the repetition/definition levels checked,
// and the row's values copied, PLAIN or through the chunk's dictionary (parquet_dictionary.h,
// read once per chunk), 8/16-bit integers narrowed from INT32 (parquet_values.h).
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
