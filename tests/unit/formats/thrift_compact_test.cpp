#include "formats/parquet/thrift_compact.h"

#include <gtest/gtest.h>

#include <string>

#include "formats/parquet/parquet_metadata.h"

namespace dlbench::formats::thrift {
namespace {

std::span<const std::byte> Bytes(const std::string& s) {
  return {reinterpret_cast<const std::byte*>(s.data()), s.size()};
}

// A struct with every kind of value Parquet uses, short and long field-id deltas, a long list
// and nested structs.
std::string Sample() {
  Writer w;
  w.field_i32(1, -5);
  w.field_i64(3, std::int64_t{1} << 40);
  w.field_bool(4, true);
  w.field_bool(5, false);
  w.field_binary(20, "hello");  // delta 15 -> short form; next is long form
  w.field_list(40, Type::kI32, 20);
  for (int i = 0; i < 20; ++i) w.element_i32(i * 1000 - 3);
  w.field_struct(41);
  w.field_i8(1, -7);
  w.field_list(2, Type::kStruct, 2);
  for (int i = 0; i < 2; ++i) {
    w.begin_struct();
    w.field_i64(1, -i);
    w.end_struct();
  }
  w.end_struct();
  w.field_i32(42, 7);  // after the nested struct: the outer struct's last id is restored
  w.end_struct();
  return w.take();
}

TEST(ThriftCompact, RoundTripsEveryValueKind) {
  const std::string data = Sample();
  Reader r(Bytes(data));
  Reader::Field f;
  ASSERT_TRUE(r.next_field(&f));
  EXPECT_EQ(f.id, 1);
  EXPECT_EQ(f.type, Type::kI32);
  EXPECT_EQ(r.read_i32(), -5);
  ASSERT_TRUE(r.next_field(&f));
  EXPECT_EQ(f.id, 3);
  EXPECT_EQ(r.read_i64(), std::int64_t{1} << 40);
  ASSERT_TRUE(r.next_field(&f));
  EXPECT_EQ(f.id, 4);
  EXPECT_TRUE(Reader::FieldBool(f));
  ASSERT_TRUE(r.next_field(&f));
  EXPECT_EQ(f.id, 5);
  EXPECT_FALSE(Reader::FieldBool(f));
  ASSERT_TRUE(r.next_field(&f));
  EXPECT_EQ(f.id, 20);
  EXPECT_EQ(r.read_binary(), "hello");
  ASSERT_TRUE(r.next_field(&f));
  EXPECT_EQ(f.id, 40);
  const Reader::ListHeader list = r.read_list();
  EXPECT_EQ(list.element, Type::kI32);
  ASSERT_EQ(list.size, 20u);
  for (int i = 0; i < 20; ++i) EXPECT_EQ(r.read_i32(), i * 1000 - 3);
  ASSERT_TRUE(r.next_field(&f));
  EXPECT_EQ(f.id, 41);
  EXPECT_EQ(f.type, Type::kStruct);
  r.skip(f.type);  // the nested struct and its list of structs
  ASSERT_TRUE(r.next_field(&f));
  EXPECT_EQ(f.id, 42);
  EXPECT_EQ(r.read_i32(), 7);
  EXPECT_FALSE(r.next_field(&f));
  EXPECT_EQ(r.position(), data.size());
}

TEST(ThriftCompact, EveryTruncationIsADecodeError) {
  const std::string data = Sample();
  for (std::size_t n = 0; n < data.size(); ++n) {
    const std::string prefix = data.substr(0, n);
    Reader r(Bytes(prefix));
    EXPECT_THROW(r.skip(Type::kStruct), DecodeError) << n;
  }
}

TEST(ThriftCompact, MalformedInputIsADecodeError) {
  // Unknown field type 13.
  EXPECT_THROW(Reader(Bytes(std::string("\x1d", 1))).skip(Type::kStruct), DecodeError);
  // A string longer than the input.
  EXPECT_THROW(Reader(Bytes(std::string("\x18\x7f"
                                        "ab",
                                        4)))
                   .skip(Type::kStruct),
               DecodeError);
  // A list claiming a million elements in four bytes.
  EXPECT_THROW(Reader(Bytes(std::string("\x19\xf5\xc0\x84\x3d", 5))).skip(Type::kStruct),
               DecodeError);
  // An unterminated varint.
  EXPECT_THROW(Reader(Bytes(std::string("\x15\xff\xff\xff", 4))).skip(Type::kStruct), DecodeError);
  // Structs nested past the depth limit.
  std::string deep;
  for (int i = 0; i < 100; ++i) deep += '\x1c';
  EXPECT_THROW(Reader(Bytes(deep)).skip(Type::kStruct), DecodeError);
}

TEST(ParquetMetadata, RoundTrips) {
  using namespace parquet;  // NOLINT(google-build-using-namespace)
  FileMetaData m;
  m.num_rows = 300;
  m.created_by = "dlbench";
  SchemaElement root;
  root.name = "schema";
  root.num_children = 1;
  SchemaElement leaf;
  leaf.name = "x";
  leaf.type = kInt32;
  leaf.repetition = kRequired;
  leaf.converted_type = kInt8;
  leaf.logical = {LogicalType::kInteger, 8, true};
  m.schema = {root, leaf};
  ColumnChunk chunk;
  chunk.file_offset = 4;
  chunk.meta_data = ColumnMetaData{kInt32, {kPlain}, {"x"}, kGzip, 300, 1300, 900, 4, {}};
  chunk.offset_index_offset = 904;
  chunk.offset_index_length = 17;
  m.row_groups.push_back({{chunk}, 1300, 300});
  const std::string encoded = Encode(m);
  const FileMetaData d = DecodeFileMetaData(Bytes(encoded));
  EXPECT_EQ(d.schema, m.schema);
  EXPECT_EQ(d.num_rows, 300);
  EXPECT_EQ(d.created_by, "dlbench");
  ASSERT_EQ(d.row_groups.size(), 1u);
  const ColumnChunk& c = d.row_groups[0].columns.at(0);
  EXPECT_EQ(c.meta_data->codec, kGzip);
  EXPECT_EQ(c.meta_data->path_in_schema, std::vector<std::string>{"x"});
  EXPECT_EQ(c.meta_data->total_compressed_size, 900);
  EXPECT_EQ(*c.offset_index_offset, 904);
  EXPECT_EQ(*c.offset_index_length, 17);

  PageHeader h;
  h.uncompressed_page_size = 1000;
  h.compressed_page_size = 600;
  h.data_page_header = DataPageHeader{250, kPlain, kRle, kRle};
  std::size_t consumed = 0;
  const std::string header = Encode(h) + "trailing page bytes";
  const PageHeader hd = DecodePageHeader(Bytes(header), &consumed);
  EXPECT_EQ(consumed, Encode(h).size());
  EXPECT_EQ(hd.compressed_page_size, 600);
  EXPECT_EQ(hd.data_page_header->num_values, 250);

  OffsetIndex index{{{4, 100, 0}, {104, 100, 7}}};
  const OffsetIndex id = DecodeOffsetIndex(Bytes(Encode(index)));
  ASSERT_EQ(id.page_locations.size(), 2u);
  EXPECT_EQ(id.page_locations[1].offset, 104);
  EXPECT_EQ(id.page_locations[1].first_row_index, 7);
}

TEST(ParquetMetadata, MissingRequiredFieldIsADecodeError) {
  Writer w;  // a PageHeader without compressed_page_size
  w.field_i32(1, 0);
  w.field_i32(2, 10);
  w.end_struct();
  std::size_t consumed = 0;
  try {
    parquet::DecodePageHeader(Bytes(w.bytes()), &consumed);
    FAIL() << "no error";
  } catch (const DecodeError& e) {
    EXPECT_NE(std::string(e.what()).find("compressed_page_size"), std::string::npos) << e.what();
  }
}

TEST(ParquetMetadata, ReadsAnIntTypeBitWidthWrittenAsI32) {
  // The specification's IntType.bitWidth is an i8; hyparquet-writer writes an i32.
  const auto footer = [](std::int32_t bits) {
    Writer w;
    w.field_i32(1, 1);
    w.field_list(2, Type::kStruct, 2);
    w.begin_struct();
    w.field_binary(4, "schema");
    w.field_i32(5, 1);
    w.end_struct();
    w.begin_struct();
    w.field_i32(1, parquet::kInt32);
    w.field_binary(4, "x");
    w.field_struct(10);  // LogicalType
    w.field_struct(10);  // IntType
    w.field_i32(1, bits);
    w.field_bool(2, false);
    w.end_struct();
    w.end_struct();
    w.end_struct();
    w.field_i64(3, 0);
    w.field_list(4, Type::kStruct, 0);
    w.end_struct();
    return w.take();
  };
  const std::string good = footer(16);
  const parquet::FileMetaData m = parquet::DecodeFileMetaData(Bytes(good));
  EXPECT_EQ(m.schema.at(1).logical,
            (parquet::LogicalType{parquet::LogicalType::kInteger, 16, false}));
  const std::string bad = footer(99);
  try {
    parquet::DecodeFileMetaData(Bytes(bad));
    FAIL() << "no error";
  } catch (const DecodeError& e) {
    EXPECT_NE(std::string(e.what()).find("IntType.bitWidth 99"), std::string::npos) << e.what();
  }
}

TEST(ParquetMetadata, DictionaryAndV2PageHeadersRoundTrip) {
  parquet::PageHeader h;
  h.type = parquet::kDataPageV2;
  h.uncompressed_page_size = 70;
  h.compressed_page_size = 50;
  h.data_page_header_v2 = parquet::DataPageHeaderV2{9, 0, 3, parquet::kRleDictionary, 4, 2, false};
  std::string encoded = parquet::Encode(h);
  std::size_t consumed = 0;
  parquet::PageHeader d = parquet::DecodePageHeader(Bytes(encoded), &consumed);
  EXPECT_EQ(consumed, encoded.size());
  ASSERT_TRUE(d.data_page_header_v2);
  EXPECT_EQ(d.data_page_header_v2->num_rows, 3);
  EXPECT_EQ(d.data_page_header_v2->encoding, parquet::kRleDictionary);
  EXPECT_EQ(d.data_page_header_v2->repetition_levels_byte_length, 2);
  EXPECT_FALSE(d.data_page_header_v2->is_compressed);
  h = {};
  h.type = parquet::kDictionaryPage;
  h.dictionary_page_header = parquet::DictionaryPageHeader{12, parquet::kPlainDictionary};
  encoded = parquet::Encode(h);
  d = parquet::DecodePageHeader(Bytes(encoded), &consumed);
  ASSERT_TRUE(d.dictionary_page_header);
  EXPECT_EQ(d.dictionary_page_header->num_values, 12);
  EXPECT_EQ(d.dictionary_page_header->encoding, parquet::kPlainDictionary);
  EXPECT_FALSE(d.data_page_header_v2);
}

}  // namespace
}  // namespace dlbench::formats::thrift
