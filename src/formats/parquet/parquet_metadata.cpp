#include "formats/parquet/parquet_metadata.h"

#include <initializer_list>
#include <utility>

#include "formats/parquet/thrift_compact.h"

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

// Reads the fields of one struct (`nested`: a struct inside another; the top-level one is
// entered already). `on_field` reads the fields it knows and returns false for the others,
// which are skipped; a required field missing at the end is a DecodeError naming it.
template <typename Fn>
void ReadStruct(Reader& r, bool nested, const char* structure,
                std::initializer_list<std::pair<int, const char*>> required, Fn on_field) {
  if (nested) r.begin_struct();
  std::uint64_t seen = 0;
  Reader::Field f;
  while (r.next_field(&f)) {
    if (f.id < 64) seen |= 1ull << f.id;
    if (!on_field(f)) r.skip(f.type);
  }
  for (const auto& [id, name] : required) {
    if ((seen & (1ull << id)) == 0) {
      throw DecodeError(std::string(structure) + " without its required field " + name);
    }
  }
}

void Expect(const Reader::Field& field, Type type, const char* name) {
  const bool is_bool = type == Type::kTrue || type == Type::kFalse;
  const bool got_bool = field.type == Type::kTrue || field.type == Type::kFalse;
  if (is_bool ? !got_bool : field.type != type) {
    throw DecodeError(std::string("field ") + name + " has thrift type " +
                      std::to_string(static_cast<int>(field.type)));
  }
}

std::int32_t I32(Reader& r, const Reader::Field& f, const char* name) {
  Expect(f, Type::kI32, name);
  return r.read_i32();
}

std::int64_t I64(Reader& r, const Reader::Field& f, const char* name) {
  Expect(f, Type::kI64, name);
  return r.read_i64();
}

std::string String(Reader& r, const Reader::Field& f, const char* name) {
  Expect(f, Type::kBinary, name);
  return std::string(r.read_binary());
}

// A list field of `element`s, each read by `read_one()`.
template <typename Fn>
auto List(Reader& r, const Reader::Field& f, Type element, const char* name, Fn read_one) {
  Expect(f, Type::kList, name);
  const Reader::ListHeader list = r.read_list();
  if (list.element != element) {
    throw DecodeError(std::string("list ") + name + " has elements of thrift type " +
                      std::to_string(static_cast<int>(list.element)));
  }
  std::vector<decltype(read_one())> items;
  items.reserve(list.size);
  for (std::size_t i = 0; i < list.size; ++i) items.push_back(read_one());
  return items;
}

LogicalType DecodeLogical(Reader& r) {
  LogicalType logical;
  ReadStruct(r, true, "LogicalType", {}, [&](const Reader::Field& f) {
    if (f.id == 10 && f.type == Type::kStruct) {
      logical.kind = LogicalType::kInteger;
      ReadStruct(r, true, "IntType", {{1, "bitWidth"}, {2, "isSigned"}},
                 [&](const Reader::Field& g) {
                   if (g.id == 1 && g.type != Type::kByte) {
                     // An i8 in the specification; hyparquet-writer writes an i32, which the
                     // compact protocol tells apart: read it when it fits.
                     Expect(g, Type::kI32, "bitWidth");
                     const std::int32_t bits = r.read_i32();
                     if (bits < 0 || bits > 64) {
                       throw DecodeError("IntType.bitWidth " + std::to_string(bits));
                     }
                     logical.bit_width = static_cast<std::int8_t>(bits);
                   } else if (g.id == 1) {
                     logical.bit_width = r.read_i8();
                   } else if (g.id == 2) {
                     Expect(g, Type::kTrue, "isSigned");
                     logical.is_signed = Reader::FieldBool(g);
                   }
                   return g.id == 1 || g.id == 2;
                 });
      return true;
    }
    logical.kind = f.id == 3    ? LogicalType::kList
                   : f.id == 15 ? LogicalType::kFloat16
                                : LogicalType::kOther;
    return false;  // skipped: an empty struct, or a member dlbench does not write
  });
  return logical;
}

SchemaElement DecodeSchemaElement(Reader& r) {
  SchemaElement e;
  ReadStruct(r, true, "SchemaElement", {{4, "name"}}, [&](const Reader::Field& f) {
    switch (f.id) {
      case 1:
        e.type = I32(r, f, "type");
        return true;
      case 2:
        e.type_length = I32(r, f, "type_length");
        return true;
      case 3:
        e.repetition = I32(r, f, "repetition_type");
        return true;
      case 4:
        e.name = String(r, f, "name");
        return true;
      case 5:
        e.num_children = I32(r, f, "num_children");
        return true;
      case 6:
        e.converted_type = I32(r, f, "converted_type");
        return true;
      case 10:
        Expect(f, Type::kStruct, "logicalType");
        e.logical = DecodeLogical(r);
        return true;
      default:
        return false;
    }
  });
  return e;
}

ColumnMetaData DecodeColumnMetaData(Reader& r) {
  ColumnMetaData m;
  ReadStruct(r, true, "ColumnMetaData",
             {{1, "type"},
              {4, "codec"},
              {5, "num_values"},
              {7, "total_compressed_size"},
              {9, "data_page_offset"}},
             [&](const Reader::Field& f) {
               switch (f.id) {
                 case 1:
                   m.type = I32(r, f, "type");
                   return true;
                 case 2:
                   m.encodings = List(r, f, Type::kI32, "encodings", [&] { return r.read_i32(); });
                   return true;
                 case 3:
                   m.path_in_schema = List(r, f, Type::kBinary, "path_in_schema",
                                           [&] { return std::string(r.read_binary()); });
                   return true;
                 case 4:
                   m.codec = I32(r, f, "codec");
                   return true;
                 case 5:
                   m.num_values = I64(r, f, "num_values");
                   return true;
                 case 6:
                   m.total_uncompressed_size = I64(r, f, "total_uncompressed_size");
                   return true;
                 case 7:
                   m.total_compressed_size = I64(r, f, "total_compressed_size");
                   return true;
                 case 9:
                   m.data_page_offset = I64(r, f, "data_page_offset");
                   return true;
                 case 11:
                   m.dictionary_page_offset = I64(r, f, "dictionary_page_offset");
                   return true;
                 default:
                   return false;
               }
             });
  return m;
}

ColumnChunk DecodeColumnChunk(Reader& r) {
  ColumnChunk c;
  ReadStruct(r, true, "ColumnChunk", {}, [&](const Reader::Field& f) {
    switch (f.id) {
      case 1:
        c.file_path = String(r, f, "file_path");
        return true;
      case 2:
        c.file_offset = I64(r, f, "file_offset");
        return true;
      case 3:
        Expect(f, Type::kStruct, "meta_data");
        c.meta_data = DecodeColumnMetaData(r);
        return true;
      case 4:
        c.offset_index_offset = I64(r, f, "offset_index_offset");
        return true;
      case 5:
        c.offset_index_length = I32(r, f, "offset_index_length");
        return true;
      default:
        return false;
    }
  });
  return c;
}

RowGroup DecodeRowGroup(Reader& r) {
  RowGroup g;
  ReadStruct(r, true, "RowGroup", {{1, "columns"}, {3, "num_rows"}}, [&](const Reader::Field& f) {
    switch (f.id) {
      case 1:
        g.columns = List(r, f, Type::kStruct, "columns", [&] { return DecodeColumnChunk(r); });
        return true;
      case 2:
        g.total_byte_size = I64(r, f, "total_byte_size");
        return true;
      case 3:
        g.num_rows = I64(r, f, "num_rows");
        return true;
      default:
        return false;
    }
  });
  return g;
}

DataPageHeader DecodeDataPageHeader(Reader& r) {
  DataPageHeader h;
  ReadStruct(r, true, "DataPageHeader",
             {{1, "num_values"},
              {2, "encoding"},
              {3, "definition_level_encoding"},
              {4, "repetition_level_encoding"}},
             [&](const Reader::Field& f) {
               switch (f.id) {
                 case 1:
                   h.num_values = I32(r, f, "num_values");
                   return true;
                 case 2:
                   h.encoding = I32(r, f, "encoding");
                   return true;
                 case 3:
                   h.definition_level_encoding = I32(r, f, "definition_level_encoding");
                   return true;
                 case 4:
                   h.repetition_level_encoding = I32(r, f, "repetition_level_encoding");
                   return true;
                 default:
                   return false;
               }
             });
  return h;
}

DataPageHeaderV2 DecodeDataPageHeaderV2(Reader& r) {
  DataPageHeaderV2 h;
  ReadStruct(r, true, "DataPageHeaderV2",
             {{1, "num_values"},
              {2, "num_nulls"},
              {3, "num_rows"},
              {4, "encoding"},
              {5, "definition_levels_byte_length"},
              {6, "repetition_levels_byte_length"}},
             [&](const Reader::Field& f) {
               switch (f.id) {
                 case 1:
                   h.num_values = I32(r, f, "num_values");
                   return true;
                 case 2:
                   h.num_nulls = I32(r, f, "num_nulls");
                   return true;
                 case 3:
                   h.num_rows = I32(r, f, "num_rows");
                   return true;
                 case 4:
                   h.encoding = I32(r, f, "encoding");
                   return true;
                 case 5:
                   h.definition_levels_byte_length = I32(r, f, "definition_levels_byte_length");
                   return true;
                 case 6:
                   h.repetition_levels_byte_length = I32(r, f, "repetition_levels_byte_length");
                   return true;
                 case 7:
                   Expect(f, Type::kTrue, "is_compressed");
                   h.is_compressed = Reader::FieldBool(f);
                   return true;
                 default:
                   return false;
               }
             });
  return h;
}

DictionaryPageHeader DecodeDictionaryPageHeader(Reader& r) {
  DictionaryPageHeader h;
  ReadStruct(r, true, "DictionaryPageHeader", {{1, "num_values"}, {2, "encoding"}},
             [&](const Reader::Field& f) {
               switch (f.id) {
                 case 1:
                   h.num_values = I32(r, f, "num_values");
                   return true;
                 case 2:
                   h.encoding = I32(r, f, "encoding");
                   return true;
                 default:
                   return false;
               }
             });
  return h;
}

PageLocation DecodePageLocation(Reader& r) {
  PageLocation p;
  ReadStruct(r, true, "PageLocation",
             {{1, "offset"}, {2, "compressed_page_size"}, {3, "first_row_index"}},
             [&](const Reader::Field& f) {
               switch (f.id) {
                 case 1:
                   p.offset = I64(r, f, "offset");
                   return true;
                 case 2:
                   p.compressed_page_size = I32(r, f, "compressed_page_size");
                   return true;
                 case 3:
                   p.first_row_index = I64(r, f, "first_row_index");
                   return true;
                 default:
                   return false;
               }
             });
  return p;
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
  if (header.dictionary_page_header) {
    w.field_struct(7);
    w.field_i32(1, header.dictionary_page_header->num_values);
    w.field_i32(2, header.dictionary_page_header->encoding);
    w.end_struct();
  }
  if (header.data_page_header_v2) {
    const DataPageHeaderV2& d = *header.data_page_header_v2;
    w.field_struct(8);
    w.field_i32(1, d.num_values);
    w.field_i32(2, d.num_nulls);
    w.field_i32(3, d.num_rows);
    w.field_i32(4, d.encoding);
    w.field_i32(5, d.definition_levels_byte_length);
    w.field_i32(6, d.repetition_levels_byte_length);
    if (!d.is_compressed) w.field_bool(7, false);
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
  ReadStruct(
      r, false, "FileMetaData", {{1, "version"}, {2, "schema"}, {3, "num_rows"}, {4, "row_groups"}},
      [&](const Reader::Field& f) {
        switch (f.id) {
          case 1:
            m.version = I32(r, f, "version");
            return true;
          case 2:
            m.schema = List(r, f, Type::kStruct, "schema", [&] { return DecodeSchemaElement(r); });
            return true;
          case 3:
            m.num_rows = I64(r, f, "num_rows");
            return true;
          case 4:
            m.row_groups =
                List(r, f, Type::kStruct, "row_groups", [&] { return DecodeRowGroup(r); });
            return true;
          case 6:
            m.created_by = String(r, f, "created_by");
            return true;
          default:
            return false;
        }
      });
  return m;
}

PageHeader DecodePageHeader(std::span<const std::byte> data, std::size_t* consumed) {
  Reader r(data);
  PageHeader h;
  ReadStruct(r, false, "PageHeader",
             {{1, "type"}, {2, "uncompressed_page_size"}, {3, "compressed_page_size"}},
             [&](const Reader::Field& f) {
               switch (f.id) {
                 case 1:
                   h.type = I32(r, f, "type");
                   return true;
                 case 2:
                   h.uncompressed_page_size = I32(r, f, "uncompressed_page_size");
                   return true;
                 case 3:
                   h.compressed_page_size = I32(r, f, "compressed_page_size");
                   return true;
                 case 4:
                   h.crc = I32(r, f, "crc");
                   return true;
                 case 5:
                   Expect(f, Type::kStruct, "data_page_header");
                   h.data_page_header = DecodeDataPageHeader(r);
                   return true;
                 case 7:
                   Expect(f, Type::kStruct, "dictionary_page_header");
                   h.dictionary_page_header = DecodeDictionaryPageHeader(r);
                   return true;
                 case 8:
                   Expect(f, Type::kStruct, "data_page_header_v2");
                   h.data_page_header_v2 = DecodeDataPageHeaderV2(r);
                   return true;
                 default:
                   return false;
               }
             });
  if (consumed) *consumed = r.position();
  return h;
}

OffsetIndex DecodeOffsetIndex(std::span<const std::byte> data) {
  Reader r(data);
  OffsetIndex index;
  ReadStruct(r, false, "OffsetIndex", {{1, "page_locations"}}, [&](const Reader::Field& f) {
    if (f.id != 1) return false;
    index.page_locations =
        List(r, f, Type::kStruct, "page_locations", [&] { return DecodePageLocation(r); });
    return true;
  });
  return index;
}

}  // namespace dlbench::formats::parquet
