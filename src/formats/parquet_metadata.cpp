#include "formats/parquet_metadata.h"

#include "formats/thrift_compact.h"

namespace dlbench::formats::parquet {
namespace {

using thrift::DecodeError;
using thrift::Reader;
using thrift::Type;
using thrift::Writer;

// ---- encoding

void EncodeLogical(Writer& w, const LogicalType& logical) {
  switch (logical.kind) {
    case LogicalType::kNone:
    case LogicalType::kOther:
      return;
    case LogicalType::kList:
      w.field_struct(10);
      w.field_struct(3);  // ListType {}
      w.end_struct();
      w.end_struct();
      return;
    case LogicalType::kInteger:
      w.field_struct(10);
      w.field_struct(10);  // IntType
      w.field_i8(1, logical.bit_width);
      w.field_bool(2, logical.is_signed);
      w.end_struct();
      w.end_struct();
      return;
    case LogicalType::kFloat16:
      w.field_struct(10);
      w.field_struct(15);  // Float16Type {}
      w.end_struct();
      w.end_struct();
      return;
  }
}

void EncodeSchemaElement(Writer& w, const SchemaElement& e) {
  w.begin_struct();
  if (e.type) w.field_i32(1, *e.type);
  if (e.type_length) w.field_i32(2, *e.type_length);
  if (e.repetition) w.field_i32(3, *e.repetition);
  w.field_binary(4, e.name);
  if (e.num_children) w.field_i32(5, *e.num_children);
  if (e.converted_type) w.field_i32(6, *e.converted_type);
  EncodeLogical(w, e.logical);
  w.end_struct();
}

void EncodeColumnMetaData(Writer& w, const ColumnMetaData& m) {
  w.field_i32(1, m.type);
  w.field_list(2, Type::kI32, m.encodings.size());
  for (const std::int32_t e : m.encodings) w.element_i32(e);
  w.field_list(3, Type::kBinary, m.path_in_schema.size());
  for (const std::string& p : m.path_in_schema) w.element_binary(p);
  w.field_i32(4, m.codec);
  w.field_i64(5, m.num_values);
  w.field_i64(6, m.total_uncompressed_size);
  w.field_i64(7, m.total_compressed_size);
  w.field_i64(9, m.data_page_offset);
  if (m.dictionary_page_offset) w.field_i64(11, *m.dictionary_page_offset);
}

void EncodeColumnChunk(Writer& w, const ColumnChunk& c) {
  w.begin_struct();
  if (c.file_path) w.field_binary(1, *c.file_path);
  w.field_i64(2, c.file_offset);
  if (c.meta_data) {
    w.field_struct(3);
    EncodeColumnMetaData(w, *c.meta_data);
    w.end_struct();
  }
  if (c.offset_index_offset) w.field_i64(4, *c.offset_index_offset);
  if (c.offset_index_length) w.field_i32(5, *c.offset_index_length);
  w.end_struct();
}

// ---- decoding

// Remembers which required fields a struct had and names the first missing one.
class Required {
 public:
  explicit Required(const char* structure) : structure_(structure) {}
  void saw(int id) {
    if (id < 64) seen_ |= 1ull << id;
  }
  void need(int id, const char* name) const {
    if ((seen_ & (1ull << id)) == 0) {
      throw DecodeError(std::string(structure_) + " without its required field " + name);
    }
  }

 private:
  const char* structure_;
  std::uint64_t seen_ = 0;
};

void Expect(const Reader::Field& field, Type type, const char* name) {
  const bool is_bool = type == Type::kTrue || type == Type::kFalse;
  const bool got_bool = field.type == Type::kTrue || field.type == Type::kFalse;
  if (is_bool ? !got_bool : field.type != type) {
    throw DecodeError(std::string("field ") + name + " has thrift type " +
                      std::to_string(static_cast<int>(field.type)));
  }
}

void ExpectList(const Reader::ListHeader& list, Type element, const char* name) {
  if (list.element != element) {
    throw DecodeError(std::string("list ") + name + " has elements of thrift type " +
                      std::to_string(static_cast<int>(list.element)));
  }
}

LogicalType DecodeLogical(Reader& r) {
  LogicalType logical;
  r.begin_struct();
  Reader::Field f;
  while (r.next_field(&f)) {
    if (f.id == 10 && f.type == Type::kStruct) {
      logical.kind = LogicalType::kInteger;
      r.begin_struct();
      Reader::Field g;
      Required req("IntType");
      while (r.next_field(&g)) {
        req.saw(g.id);
        if (g.id == 1) {
          Expect(g, Type::kByte, "bitWidth");
          logical.bit_width = r.read_i8();
        } else if (g.id == 2) {
          Expect(g, Type::kTrue, "isSigned");
          logical.is_signed = Reader::FieldBool(g);
        } else {
          r.skip(g.type);
        }
      }
      req.need(1, "bitWidth");
      req.need(2, "isSigned");
    } else {
      logical.kind = f.id == 3    ? LogicalType::kList
                     : f.id == 15 ? LogicalType::kFloat16
                                  : LogicalType::kOther;
      r.skip(f.type);
    }
  }
  return logical;
}

SchemaElement DecodeSchemaElement(Reader& r) {
  SchemaElement e;
  Required req("SchemaElement");
  r.begin_struct();
  Reader::Field f;
  while (r.next_field(&f)) {
    req.saw(f.id);
    switch (f.id) {
      case 1:
        Expect(f, Type::kI32, "type");
        e.type = r.read_i32();
        break;
      case 2:
        Expect(f, Type::kI32, "type_length");
        e.type_length = r.read_i32();
        break;
      case 3:
        Expect(f, Type::kI32, "repetition_type");
        e.repetition = r.read_i32();
        break;
      case 4:
        Expect(f, Type::kBinary, "name");
        e.name = r.read_binary();
        break;
      case 5:
        Expect(f, Type::kI32, "num_children");
        e.num_children = r.read_i32();
        break;
      case 6:
        Expect(f, Type::kI32, "converted_type");
        e.converted_type = r.read_i32();
        break;
      case 10:
        Expect(f, Type::kStruct, "logicalType");
        e.logical = DecodeLogical(r);
        break;
      default:
        r.skip(f.type);
    }
  }
  req.need(4, "name");
  return e;
}

std::vector<std::int32_t> DecodeI32List(Reader& r, const char* name) {
  const Reader::ListHeader list = r.read_list();
  ExpectList(list, Type::kI32, name);
  std::vector<std::int32_t> values(list.size);
  for (std::int32_t& v : values) v = r.read_i32();
  return values;
}

ColumnMetaData DecodeColumnMetaData(Reader& r) {
  ColumnMetaData m;
  Required req("ColumnMetaData");
  r.begin_struct();
  Reader::Field f;
  while (r.next_field(&f)) {
    req.saw(f.id);
    switch (f.id) {
      case 1:
        Expect(f, Type::kI32, "type");
        m.type = r.read_i32();
        break;
      case 2:
        Expect(f, Type::kList, "encodings");
        m.encodings = DecodeI32List(r, "encodings");
        break;
      case 3: {
        Expect(f, Type::kList, "path_in_schema");
        const Reader::ListHeader list = r.read_list();
        ExpectList(list, Type::kBinary, "path_in_schema");
        m.path_in_schema.clear();
        for (std::size_t i = 0; i < list.size; ++i) {
          m.path_in_schema.emplace_back(r.read_binary());
        }
        break;
      }
      case 4:
        Expect(f, Type::kI32, "codec");
        m.codec = r.read_i32();
        break;
      case 5:
        Expect(f, Type::kI64, "num_values");
        m.num_values = r.read_i64();
        break;
      case 6:
        Expect(f, Type::kI64, "total_uncompressed_size");
        m.total_uncompressed_size = r.read_i64();
        break;
      case 7:
        Expect(f, Type::kI64, "total_compressed_size");
        m.total_compressed_size = r.read_i64();
        break;
      case 9:
        Expect(f, Type::kI64, "data_page_offset");
        m.data_page_offset = r.read_i64();
        break;
      case 11:
        Expect(f, Type::kI64, "dictionary_page_offset");
        m.dictionary_page_offset = r.read_i64();
        break;
      default:
        r.skip(f.type);
    }
  }
  req.need(1, "type");
  req.need(4, "codec");
  req.need(5, "num_values");
  req.need(7, "total_compressed_size");
  req.need(9, "data_page_offset");
  return m;
}

ColumnChunk DecodeColumnChunk(Reader& r) {
  ColumnChunk c;
  r.begin_struct();
  Reader::Field f;
  while (r.next_field(&f)) {
    switch (f.id) {
      case 1:
        Expect(f, Type::kBinary, "file_path");
        c.file_path = std::string(r.read_binary());
        break;
      case 2:
        Expect(f, Type::kI64, "file_offset");
        c.file_offset = r.read_i64();
        break;
      case 3:
        Expect(f, Type::kStruct, "meta_data");
        c.meta_data = DecodeColumnMetaData(r);
        break;
      case 4:
        Expect(f, Type::kI64, "offset_index_offset");
        c.offset_index_offset = r.read_i64();
        break;
      case 5:
        Expect(f, Type::kI32, "offset_index_length");
        c.offset_index_length = r.read_i32();
        break;
      default:
        r.skip(f.type);
    }
  }
  return c;
}

RowGroup DecodeRowGroup(Reader& r) {
  RowGroup g;
  Required req("RowGroup");
  r.begin_struct();
  Reader::Field f;
  while (r.next_field(&f)) {
    req.saw(f.id);
    switch (f.id) {
      case 1: {
        Expect(f, Type::kList, "columns");
        const Reader::ListHeader list = r.read_list();
        ExpectList(list, Type::kStruct, "columns");
        g.columns.clear();
        for (std::size_t i = 0; i < list.size; ++i) g.columns.push_back(DecodeColumnChunk(r));
        break;
      }
      case 2:
        Expect(f, Type::kI64, "total_byte_size");
        g.total_byte_size = r.read_i64();
        break;
      case 3:
        Expect(f, Type::kI64, "num_rows");
        g.num_rows = r.read_i64();
        break;
      default:
        r.skip(f.type);
    }
  }
  req.need(1, "columns");
  req.need(3, "num_rows");
  return g;
}

DataPageHeader DecodeDataPageHeader(Reader& r) {
  DataPageHeader h;
  Required req("DataPageHeader");
  r.begin_struct();
  Reader::Field f;
  while (r.next_field(&f)) {
    req.saw(f.id);
    if (f.id >= 1 && f.id <= 4) {
      Expect(f, Type::kI32, "DataPageHeader field");
      const std::int32_t v = r.read_i32();
      if (f.id == 1) h.num_values = v;
      if (f.id == 2) h.encoding = v;
      if (f.id == 3) h.definition_level_encoding = v;
      if (f.id == 4) h.repetition_level_encoding = v;
    } else {
      r.skip(f.type);
    }
  }
  for (int id = 1; id <= 4; ++id) req.need(id, "num_values/encoding/level encodings");
  return h;
}

}  // namespace

std::string Encode(const FileMetaData& metadata) {
  Writer w;
  w.field_i32(1, metadata.version);
  w.field_list(2, Type::kStruct, metadata.schema.size());
  for (const SchemaElement& e : metadata.schema) EncodeSchemaElement(w, e);
  w.field_i64(3, metadata.num_rows);
  w.field_list(4, Type::kStruct, metadata.row_groups.size());
  for (const RowGroup& g : metadata.row_groups) {
    w.begin_struct();
    w.field_list(1, Type::kStruct, g.columns.size());
    for (const ColumnChunk& c : g.columns) EncodeColumnChunk(w, c);
    w.field_i64(2, g.total_byte_size);
    w.field_i64(3, g.num_rows);
    w.end_struct();
  }
  if (!metadata.created_by.empty()) w.field_binary(6, metadata.created_by);
  w.end_struct();
  return w.take();
}

std::string Encode(const PageHeader& header) {
  Writer w;
  w.field_i32(1, header.type);
  w.field_i32(2, header.uncompressed_page_size);
  w.field_i32(3, header.compressed_page_size);
  if (header.crc) w.field_i32(4, *header.crc);
  if (header.data_page_header) {
    const DataPageHeader& d = *header.data_page_header;
    w.field_struct(5);
    w.field_i32(1, d.num_values);
    w.field_i32(2, d.encoding);
    w.field_i32(3, d.definition_level_encoding);
    w.field_i32(4, d.repetition_level_encoding);
    w.end_struct();
  }
  w.end_struct();
  return w.take();
}

std::string Encode(const OffsetIndex& index) {
  Writer w;
  w.field_list(1, Type::kStruct, index.page_locations.size());
  for (const PageLocation& p : index.page_locations) {
    w.begin_struct();
    w.field_i64(1, p.offset);
    w.field_i32(2, p.compressed_page_size);
    w.field_i64(3, p.first_row_index);
    w.end_struct();
  }
  w.end_struct();
  return w.take();
}

FileMetaData DecodeFileMetaData(std::span<const std::byte> data) {
  Reader r(data);
  FileMetaData m;
  Required req("FileMetaData");
  Reader::Field f;
  while (r.next_field(&f)) {
    req.saw(f.id);
    switch (f.id) {
      case 1:
        Expect(f, Type::kI32, "version");
        m.version = r.read_i32();
        break;
      case 2: {
        Expect(f, Type::kList, "schema");
        const Reader::ListHeader list = r.read_list();
        ExpectList(list, Type::kStruct, "schema");
        m.schema.clear();
        for (std::size_t i = 0; i < list.size; ++i) m.schema.push_back(DecodeSchemaElement(r));
        break;
      }
      case 3:
        Expect(f, Type::kI64, "num_rows");
        m.num_rows = r.read_i64();
        break;
      case 4: {
        Expect(f, Type::kList, "row_groups");
        const Reader::ListHeader list = r.read_list();
        ExpectList(list, Type::kStruct, "row_groups");
        m.row_groups.clear();
        for (std::size_t i = 0; i < list.size; ++i) m.row_groups.push_back(DecodeRowGroup(r));
        break;
      }
      case 6:
        Expect(f, Type::kBinary, "created_by");
        m.created_by = r.read_binary();
        break;
      default:
        r.skip(f.type);
    }
  }
  req.need(1, "version");
  req.need(2, "schema");
  req.need(3, "num_rows");
  req.need(4, "row_groups");
  return m;
}

PageHeader DecodePageHeader(std::span<const std::byte> data, std::size_t* consumed) {
  Reader r(data);
  PageHeader h;
  Required req("PageHeader");
  Reader::Field f;
  while (r.next_field(&f)) {
    req.saw(f.id);
    switch (f.id) {
      case 1:
      case 2:
      case 3:
      case 4: {
        Expect(f, Type::kI32, "PageHeader field");
        const std::int32_t v = r.read_i32();
        if (f.id == 1) h.type = v;
        if (f.id == 2) h.uncompressed_page_size = v;
        if (f.id == 3) h.compressed_page_size = v;
        if (f.id == 4) h.crc = v;
        break;
      }
      case 5:
        Expect(f, Type::kStruct, "data_page_header");
        h.data_page_header = DecodeDataPageHeader(r);
        break;
      default:
        r.skip(f.type);
    }
  }
  req.need(1, "type");
  req.need(2, "uncompressed_page_size");
  req.need(3, "compressed_page_size");
  if (consumed) *consumed = r.position();
  return h;
}

OffsetIndex DecodeOffsetIndex(std::span<const std::byte> data) {
  Reader r(data);
  OffsetIndex index;
  Required req("OffsetIndex");
  Reader::Field f;
  while (r.next_field(&f)) {
    req.saw(f.id);
    if (f.id != 1) {
      r.skip(f.type);
      continue;
    }
    Expect(f, Type::kList, "page_locations");
    const Reader::ListHeader list = r.read_list();
    ExpectList(list, Type::kStruct, "page_locations");
    index.page_locations.clear();
    for (std::size_t i = 0; i < list.size; ++i) {
      PageLocation p;
      Required loc("PageLocation");
      r.begin_struct();
      Reader::Field g;
      while (r.next_field(&g)) {
        loc.saw(g.id);
        if (g.id == 1) {
          Expect(g, Type::kI64, "offset");
          p.offset = r.read_i64();
        } else if (g.id == 2) {
          Expect(g, Type::kI32, "compressed_page_size");
          p.compressed_page_size = r.read_i32();
        } else if (g.id == 3) {
          Expect(g, Type::kI64, "first_row_index");
          p.first_row_index = r.read_i64();
        } else {
          r.skip(g.type);
        }
      }
      loc.need(1, "offset");
      loc.need(2, "compressed_page_size");
      loc.need(3, "first_row_index");
      index.page_locations.push_back(p);
    }
  }
  req.need(1, "page_locations");
  return index;
}

}  // namespace dlbench::formats::parquet
