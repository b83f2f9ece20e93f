// How a Parquet file's schema holds the columns dlbench expects (parquet_layout.h), whoever wrote
// it: dlbench (required columns, 3-level LISTs of required elements), pyarrow as MLCommons DLIO
// calls it (nullable columns: `optional <type> name`, and a FixedSizeList as
// `optional group name (LIST) { repeated group list { optional <type> element } }`, the leaf
// called "item" before pyarrow 13) or another writer of the same shapes.
//
// Per column, in the configured order: a primitive leaf named like the column (one value per
// row, so a column of size 1), or a LIST-annotated group named like the column holding one
// repeated group holding one leaf (any number of values per row: the reader's level checks
// demand `size`). Either may be required or optional. The leaf's physical type,
// FIXED_LEN_BYTE_ARRAY length and integer / FLOAT16 annotation (logical type, or else the converted
// type) must be the dtype's (parquet_layout.h); the names of the list's inner elements are not
// checked.
#pragma once

#include <string>
#include <vector>

#include "formats/parquet/parquet_layout.h"
#include "formats/parquet/parquet_metadata.h"

namespace dlbench::formats::parquet {

struct FileColumn {
  std::vector<std::string> path;  // path_in_schema of its leaf
  int max_repetition = 0;         // 0: one value per row; 1: a list
  int max_definition = 0;         // optional and repeated ancestors, the leaf included
};

// Matches the file's schema against the layout's columns and returns how the file holds each.
// Throws thrift::DecodeError describing the first difference (naming the column and the
// configuration keys that decide what is expected).
std::vector<FileColumn> MatchSchema(const std::vector<SchemaElement>& schema, const Layout& layout);

}  // namespace dlbench::formats::parquet
