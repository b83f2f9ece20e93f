// The Parquet metadata structures dlbench writes and reads (parquet-format's parquet.thrift),
// limited to the fields its files use or a reader must check, with their Thrift compact
// encoding (thrift_compact.h). Field numbers are the specification's. Decoding skips fields it
// does not know (statistics, key/value metadata, ...) and throws thrift::DecodeError when a
// required field is missing or a value is malformed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace dlbench::formats::parquet {

inline constexpr char kMagic[] = "PAR1";  // 4 bytes at the start and the end of every file

// Enumerations (values fixed by the specification).
enum PhysicalType : std::int32_t {
  kBoolean = 0,
  kInt32 = 1,
  kInt64 = 2,
  kInt96 = 3,
  kFloat = 4,
  kDouble = 5,
  kByteArray = 6,
  kFixedLenByteArray = 7
};
enum Repetition : std::int32_t { kRequired = 0, kOptional = 1, kRepeated = 2 };
enum ConvertedType : std::int32_t {
  kConvertedList = 3,
  kUint8 = 11,
  kUint16 = 12,
  kUint32 = 13,
  kUint64 = 14,
  kInt8 = 15,
  kInt16 = 16,
  kConvertedInt32 = 17,
  kConvertedInt64 = 18
};
enum Encoding : std::int32_t {
  kPlain = 0,
  kPlainDictionary = 2,  // Parquet 1.0's name of a dictionary page and its data pages' encoding
  kRle = 3,
  kBitPacked = 4,  // deprecated level encoding (not read)
  kRleDictionary = 8
};
enum Codec : std::int32_t {
  kUncompressed = 0,
  kSnappy = 1,
  kGzip = 2,
  kLzo = 3,
  kBrotli = 4,
  kLz4 = 5,
  kZstd = 6,
  kLz4Raw = 7
};
enum PageType : std::int32_t {
  kDataPage = 0,
  kIndexPage = 1,
  kDictionaryPage = 2,
  kDataPageV2 = 3
};

// The union LogicalType, for the members dlbench writes; any other member reads as kOther.
struct LogicalType {
  enum Kind { kNone, kList, kInteger, kFloat16, kOther };
  Kind kind = kNone;
  std::int8_t bit_width = 0;  // kInteger
  bool is_signed = false;     // kInteger

  bool operator==(const LogicalType&) const = default;
};

struct SchemaElement {
  std::optional<std::int32_t> type;  // leaves only
  std::optional<std::int32_t> type_length;
  std::optional<std::int32_t> repetition;  // absent on the root
  std::string name;
  std::optional<std::int32_t> num_children;  // groups only
  std::optional<std::int32_t> converted_type;
  LogicalType logical;

  bool operator==(const SchemaElement&) const = default;
};

struct ColumnMetaData {
  std::int32_t type = 0;
  std::vector<std::int32_t> encodings;
  std::vector<std::string> path_in_schema;
  std::int32_t codec = kUncompressed;
  std::int64_t num_values = 0;
  std::int64_t total_uncompressed_size = 0;
  std::int64_t total_compressed_size = 0;
  std::int64_t data_page_offset = 0;
  std::optional<std::int64_t> dictionary_page_offset;
};

struct ColumnChunk {
  std::optional<std::string> file_path;  // set: the data lives in another file (refused)
  std::int64_t file_offset = 0;
  std::optional<ColumnMetaData> meta_data;
  std::optional<std::int64_t> offset_index_offset;
  std::optional<std::int32_t> offset_index_length;
};

struct RowGroup {
  std::vector<ColumnChunk> columns;
  std::int64_t total_byte_size = 0;
  std::int64_t num_rows = 0;
};

struct FileMetaData {
  std::int32_t version = 1;
  std::vector<SchemaElement> schema;  // depth-first, the root first
  std::int64_t num_rows = 0;
  std::vector<RowGroup> row_groups;
  std::string created_by;
};

struct DataPageHeader {
  std::int32_t num_values = 0;
  std::int32_t encoding = kPlain;
  std::int32_t definition_level_encoding = kRle;
  std::int32_t repetition_level_encoding = kRle;
};

// Data page v2: levels first, never compressed (their lengths given), then the values, which
// `is_compressed` says whether the column chunk's codec compressed.
struct DataPageHeaderV2 {
  std::int32_t num_values = 0;  // levels, nulls included
  std::int32_t num_nulls = 0;
  std::int32_t num_rows = 0;
  std::int32_t encoding = kPlain;
  std::int32_t definition_levels_byte_length = 0;
  std::int32_t repetition_levels_byte_length = 0;
  bool is_compressed = true;
};

struct DictionaryPageHeader {
  std::int32_t num_values = 0;
  std::int32_t encoding = kPlain;
};

struct PageHeader {
  std::int32_t type = kDataPage;
  std::int32_t uncompressed_page_size = 0;
  std::int32_t compressed_page_size = 0;
  std::optional<std::int32_t> crc;
  std::optional<DataPageHeader> data_page_header;
  std::optional<DictionaryPageHeader> dictionary_page_header;
  std::optional<DataPageHeaderV2> data_page_header_v2;
};

struct PageLocation {
  std::int64_t offset = 0;                // of the page header
  std::int32_t compressed_page_size = 0;  // header included
  std::int64_t first_row_index = 0;       // within the row group
};

struct OffsetIndex {
  std::vector<PageLocation> page_locations;
};

std::string Encode(const FileMetaData& metadata);
std::string Encode(const PageHeader& header);
std::string Encode(const OffsetIndex& index);

// Each decodes one structure from the start of `data`; `consumed` (if given) receives its length.
FileMetaData DecodeFileMetaData(std::span<const std::byte> data);
PageHeader DecodePageHeader(std::span<const std::byte> data, std::size_t* consumed);
OffsetIndex DecodeOffsetIndex(std::span<const std::byte> data);

}  // namespace dlbench::formats::parquet
