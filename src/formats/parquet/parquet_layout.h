// How dlbench lays a dataset file's samples out as Parquet (the subset docs/formats.md describes),
// shared by the writer, which produces it, and the reader, which checks a file against it.
//
// - One row per sample; one column per dataset.parquet.columns entry {name, dtype, size}, or,
//   without columns, DLIO's legacy single column "data" of the sample's elements.
// - A column of size 1 is a required primitive; a column of size N > 1 is a standard 3-level LIST
//   of N required elements per row (`required group <name> (LIST) { repeated group list {
//   required <type> element; } }`): repetition and definition levels present, max level 1 each.
// - Physical types: float32 FLOAT, float64 DOUBLE, int32/int64 INT32/INT64, (u)int8/16 INT32 and
//   uint32/uint64 INT32/INT64 with an INTEGER logical type, float16 FIXED_LEN_BYTE_ARRAY(2)
//   FLOAT16.
// - Row groups of parquet.row_group_size rows; in each column chunk, PLAIN-encoded data pages v1
//   of whole rows holding about kPageTargetBytes of values (at least one row); no dictionary, no
//   statistics; codec UNCOMPRESSED, SNAPPY, GZIP or ZSTD (dataset.compression none / snappy /
//   gzip / zstd).
// - After the row groups, one OffsetIndex per column chunk (the "page index" that lets a reader
//   find the page of a row without scanning), then the footer.
//
// Sample payload (format.h): sample k's bytes are [k·S, (k+1)·S) with S the sum of the columns'
// size · itemsize, the columns back to back in the order given; a column's value bytes on disk
// are those bytes (widened to 4 bytes for 8- and 16-bit integers).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "formats/format.h"
#include "formats/parquet/parquet_metadata.h"

namespace dlbench::formats::parquet {

// Values per data page, as the default data page size of Arrow and parquet-mr.
inline constexpr Bytes kPageTargetBytes = 1 * MiB;

struct Column {
  std::string name;
  std::string dtype;      // NumPy name
  std::int64_t size = 1;  // elements per row
  bool read = true;       // dataset.parquet.columns[].read: projected by the reader
  int itemsize = 1;       // bytes per element in the sample
  PhysicalType physical = kFloat;
  int value_bytes = 4;  // bytes per element on disk (PLAIN)
  bool is_list = false;
  Bytes sample_offset = 0;  // where the column starts in a sample (payload)
  std::int64_t rows_per_page = 1;

  Bytes row_bytes() const { return static_cast<Bytes>(size) * static_cast<Bytes>(itemsize); }
  Bytes row_value_bytes() const {
    return static_cast<Bytes>(size) * static_cast<Bytes>(value_bytes);
  }
  // The schema elements of the column (1 for a primitive, 3 for a list).
  std::vector<SchemaElement> schema() const;
  std::vector<std::string> path() const;
};

struct Layout {
  std::vector<Column> columns;
  Bytes sample_bytes = 0;  // every column
  std::int64_t rows = 0;
  std::int64_t row_group_rows = 1;
  Codec codec = kUncompressed;
  int compression_level = 6;

  std::int64_t row_groups() const { return (rows + row_group_rows - 1) / row_group_rows; }
  std::int64_t rows_in_group(std::int64_t g) const {
    return std::min(row_group_rows, rows - g * row_group_rows);
  }
  std::vector<SchemaElement> schema() const;
};

// Throws Error(kUsage) naming the column for an element type or compression that dlbench's
// Parquet subset does not have, and for rows too large for one page.
Layout MakeLayout(const FileSpec& spec);

// The repetition and definition levels of a data page v1 of `rows` rows of a list column of
// `size` elements: each RLE/bit-packed hybrid run sequence prefixed by its 4-byte length.
std::string EncodeListLevels(std::int64_t rows, std::int64_t size);

}  // namespace dlbench::formats::parquet
