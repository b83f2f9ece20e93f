#include "formats/parquet/parquet_layout.h"

#include <algorithm>
#include <climits>

#include "formats/io/dtype.h"
#include "formats/io/little_endian.h"
#include "util/error.h"

namespace dlbench::formats::parquet {
namespace {

struct TypeMapping {
  std::string_view dtype;
  PhysicalType physical;
  int value_bytes;
  LogicalType logical;
  std::optional<std::int32_t> converted;
};

const TypeMapping kTypes[] = {
    {"float32", kFloat, 4, {}, std::nullopt},
    {"float64", kDouble, 8, {}, std::nullopt},
    {"int32", kInt32, 4, {}, std::nullopt},
    {"int64", kInt64, 8, {}, std::nullopt},
    {"int8", kInt32, 4, {LogicalType::kInteger, 8, true}, kInt8},
    {"int16", kInt32, 4, {LogicalType::kInteger, 16, true}, kInt16},
    {"uint8", kInt32, 4, {LogicalType::kInteger, 8, false}, kUint8},
    {"uint16", kInt32, 4, {LogicalType::kInteger, 16, false}, kUint16},
    {"uint32", kInt32, 4, {LogicalType::kInteger, 32, false}, kUint32},
    {"uint64", kInt64, 8, {LogicalType::kInteger, 64, false}, kUint64},
    {"float16", kFixedLenByteArray, 2, {LogicalType::kFloat16, 0, false}, std::nullopt},
};

const TypeMapping& Lookup(const std::string& dtype, const std::string& column) {
  for (const TypeMapping& t : kTypes) {
    if (t.dtype == dtype) return t;
  }
  throw UsageError("dataset.parquet.columns: column '" + column + "' has dtype '" + dtype +
                   "', which dlbench's Parquet files cannot hold (numeric types only: int8, "
                   "int16, int32, int64, uint8, uint16, uint32, uint64, float16, float32, "
                   "float64)");
}

void PutVarint(std::string& out, std::uint64_t v) {
  while (v >= 0x80) {
    out += static_cast<char>((v & 0x7F) | 0x80);
    v >>= 7;
  }
  out += static_cast<char>(v);
}

// An RLE run of a level of bit width 1: header (count << 1), then the value in one byte.
void PutRun(std::string& out, std::uint64_t count, int value) {
  PutVarint(out, count << 1);
  out += static_cast<char>(value);
}

}  // namespace

std::vector<SchemaElement> Column::schema() const {
  const TypeMapping& t = Lookup(dtype, name);
  SchemaElement leaf;
  leaf.type = physical;
  if (physical == kFixedLenByteArray) leaf.type_length = value_bytes;
  leaf.repetition = kRequired;
  leaf.name = is_list ? "element" : name;
  leaf.converted_type = t.converted;
  leaf.logical = t.logical;
  if (!is_list) return {leaf};
  SchemaElement outer;
  outer.repetition = kRequired;
  outer.name = name;
  outer.num_children = 1;
  outer.converted_type = kConvertedList;
  outer.logical.kind = LogicalType::kList;
  SchemaElement middle;
  middle.repetition = kRepeated;
  middle.name = "list";
  middle.num_children = 1;
  return {outer, middle, leaf};
}

std::vector<std::string> Column::path() const {
  if (is_list) return {name, "list", "element"};
  return {name};
}

std::vector<SchemaElement> Layout::schema() const {
  SchemaElement root;
  root.name = "schema";
  root.num_children = static_cast<std::int32_t>(columns.size());
  std::vector<SchemaElement> elements{root};
  for (const Column& c : columns) {
    for (SchemaElement& e : c.schema()) elements.push_back(std::move(e));
  }
  return elements;
}

Layout MakeLayout(const FileSpec& spec) {
  Layout layout;
  std::vector<config::ParquetColumn> specs = spec.parquet_columns;
  if (specs.empty()) {
    // DLIO's legacy layout: one column "data" holding the sample's elements.
    std::int64_t elements = 1;
    for (const std::int64_t d : spec.sample_dims) elements *= d;
    specs.push_back({"data", spec.dtype, elements, true});
  }
  Bytes offset = 0;
  for (const config::ParquetColumn& s : specs) {
    const TypeMapping& t = Lookup(s.dtype, s.name);
    Column c;
    c.name = s.name;
    c.dtype = s.dtype;
    c.size = s.size;
    c.read = s.read;
    c.itemsize = LookupDType(s.dtype).itemsize;
    c.physical = t.physical;
    c.value_bytes = t.value_bytes;
    c.is_list = s.size > 1;
    c.sample_offset = offset;
    if (s.size < 1) {
      throw UsageError("dataset.parquet.columns: column '" + s.name + "' has size " +
                       std::to_string(s.size) + "; it must be >= 1");
    }
    // A page (one row at least, plus levels and header) must fit the i32 sizes of its header.
    if (c.row_value_bytes() > static_cast<Bytes>(INT32_MAX) - 64 * KiB) {
      throw UsageError("dataset.parquet.columns: a row of column '" + s.name + "' holds " +
                       std::to_string(c.row_value_bytes()) +
                       " bytes; a Parquet page holds less than 2 GiB");
    }
    c.rows_per_page = std::max<std::int64_t>(
        1, static_cast<std::int64_t>(kPageTargetBytes / c.row_value_bytes()));
    offset += c.row_bytes();
    layout.columns.push_back(std::move(c));
  }
  layout.sample_bytes = offset;
  layout.rows = spec.samples;
  layout.row_group_rows = std::max<std::int64_t>(1, spec.parquet_row_group_size);
  switch (spec.compression) {
    case config::Compression::kNone:
      layout.codec = kUncompressed;
      break;
    case config::Compression::kSnappy:
      layout.codec = kSnappy;
      break;
    case config::Compression::kGzip:
      layout.codec = kGzip;
      layout.compression_level = spec.compression_level;
      break;
    case config::Compression::kZstd:
      layout.codec = kZstd;
      layout.compression_level = spec.compression_level;
      break;
    default:  // config::Validate lets only none, snappy, gzip and zstd through
      throw InternalError(std::string("dataset.compression: ") +
                          config::ToString(spec.compression) +
                          " is not available for parquet (none, snappy, gzip or zstd)");
  }
  return layout;
}

std::string EncodeListLevels(std::int64_t rows, std::int64_t size) {
  std::string rep;
  for (std::int64_t r = 0; r < rows; ++r) {
    PutRun(rep, 1, 0);
    PutRun(rep, static_cast<std::uint64_t>(size - 1), 1);
  }
  std::string def;
  PutRun(def, static_cast<std::uint64_t>(rows * size), 1);
  std::string out;
  PutLe(out, rep.size(), 4);
  out += rep;
  PutLe(out, def.size(), 4);
  out += def;
  return out;
}

}  // namespace dlbench::formats::parquet
