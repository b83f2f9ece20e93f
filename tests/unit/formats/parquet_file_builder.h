// Builds Parquet files the way other writers lay them out, for the reader's tests: pyarrow as
// MLCommons DLIO calls it (nullable columns, dictionary page + RLE_DICTIONARY data pages that fall
// back to PLAIN, data pages v1 cut inside rows, no offset index) and variations of it (data pages
// v2, required columns, each codec, leaf named "item"), with hooks to damage one thing at a time.
//
// The values are a function of (row, element) (Value below), so a test knows what every sample
// must read back as: ExpectedSample(). Level and index runs are encoded here, independently of
// the reader, the way Arrow's and hyparquet-writer's encoders do it: a run of 8 or more equal
// values as an RLE run, anything else as bit-packed groups of 8.
#pragma once

#include <snappy-c.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "formats/io/dtype.h"
#include "formats/io/little_endian.h"
#include "formats/parquet/parquet_layout.h"
#include "formats/parquet/parquet_metadata.h"

namespace dlbench::formats::test {

struct ForeignColumn {
  std::string name;
  std::string dtype = "float32";
  std::int64_t size = 1;  // values per row: 1 a primitive, else a LIST
  bool optional = true;   // pyarrow: nullable column and nullable list element
  std::string leaf = "element";
  std::uint64_t cardinality = 0;  // 0: every value distinct; k: values cycle through k
};

// One data page: value slots [first, first + count) of the chunk.
struct ForeignPage {
  std::int64_t count = 0;
  bool dictionary = false;  // RLE_DICTIONARY indices, else PLAIN values
  bool v2 = false;
};

struct ForeignFile {
  std::vector<ForeignColumn> columns;
  std::vector<std::int64_t> row_groups;  // rows in each
  std::int32_t codec = parquet::kUncompressed;
  // Pages of column c in row group g (value slots); default: pages of `page_values` slots,
  // dictionary-encoded while `dictionary_pages` of them, then PLAIN (pyarrow's fallback).
  std::function<std::vector<ForeignPage>(std::size_t c, std::size_t g, std::int64_t slots)> pages;
  std::int64_t page_values = 100;
  int dictionary_pages = 1;
  bool v2 = false;
  std::int32_t dictionary_encoding = parquet::kPlain;  // PLAIN_DICTIONARY in Parquet 1.0
  std::int32_t data_dictionary_encoding = parquet::kRleDictionary;
  // Offset indexes (pyarrow's write_page_index=True, arrow-rs): pages must then start rows.
  bool offset_index = false;
  // Without dictionary_page_offset, data_page_offset points at the dictionary page (old writers).
  bool write_dictionary_page_offset = true;
  // Damage: a null at value slot `null_slot` of column 0 in row group 0 (-1: none); the last
  // `dictionary_missing` dictionary entries left out; this bit-width byte before the indices.
  std::int64_t null_slot = -1;
  std::size_t dictionary_missing = 0;
  std::optional<int> index_width_byte;
};

// The value of element `e` of row `row` (row within the file) of column `c`: distinct bit
// patterns, or `cardinality` of them.
inline std::uint64_t Value(const ForeignColumn& c, std::size_t ci, std::int64_t row,
                           std::int64_t e) {
  const auto k = static_cast<std::uint64_t>(row * c.size + e);
  const std::uint64_t v = c.cardinality ? k % c.cardinality : k;
  return (v * 0x9E3779B97F4A7C15ull + ci) >> 7;
}

inline parquet::Column ColumnOf(const ForeignColumn& c) {
  FileSpec spec;
  spec.parquet_columns = {{c.name, c.dtype, c.size, true}};
  spec.samples = 1;
  return parquet::MakeLayout(spec).columns[0];
}

// The sample bytes a reader must return for `row`: each column's values at its itemsize.
inline std::vector<std::byte> ExpectedSample(const ForeignFile& f, std::int64_t row,
                                             const std::vector<bool>& read = {}) {
  std::vector<std::byte> out;
  for (std::size_t ci = 0; ci < f.columns.size(); ++ci) {
    if (!read.empty() && !read[ci]) continue;
    const ForeignColumn& c = f.columns[ci];
    const int item = LookupDType(c.dtype).itemsize;
    for (std::int64_t e = 0; e < c.size; ++e) {
      std::string bytes;
      PutLe(bytes, Value(c, ci, row, e), item);
      for (const char b : bytes) out.push_back(static_cast<std::byte>(b));
    }
  }
  return out;
}

// The hybrid encoding of `values` at `bit_width`.
inline std::string EncodeHybrid(const std::vector<std::uint32_t>& values, int bit_width) {
  std::string out;
  const auto varint = [&](std::uint64_t v) {
    while (v >= 0x80) {
      out += static_cast<char>((v & 0x7F) | 0x80);
      v >>= 7;
    }
    out += static_cast<char>(v);
  };
  std::size_t i = 0;
  std::size_t pending_start = 0;
  std::size_t pending_groups = 0;
  const auto flush = [&] {
    if (pending_groups == 0) return;
    varint((pending_groups << 1) | 1);
    std::uint64_t acc = 0;
    int bits = 0;
    for (std::size_t k = 0; k < pending_groups * 8; ++k) {
      const std::size_t at = pending_start + k;
      const std::uint64_t v = at < values.size() ? values[at] : 0;
      acc |= v << bits;
      bits += bit_width;
      while (bits >= 8) {
        out += static_cast<char>(acc & 0xFF);
        acc >>= 8;
        bits -= 8;
      }
    }
    pending_groups = 0;
  };
  while (i < values.size()) {
    std::size_t run = 1;
    while (i + run < values.size() && values[i + run] == values[i]) ++run;
    if (run >= 8) {
      flush();
      varint(run << 1);
      PutLe(out, values[i], (bit_width + 7) / 8);
      i += run;
    } else {
      if (pending_groups == 0) pending_start = i;
      ++pending_groups;
      i += 8;
    }
  }
  flush();
  return out;
}

inline std::string Compress(std::int32_t codec, const std::string& in) {
  switch (codec) {
    case parquet::kSnappy: {
      std::size_t n = snappy_max_compressed_length(in.size());
      std::string out(n, '\0');
      snappy_compress(in.data(), in.size(), out.data(), &n);
      out.resize(n);
      return out;
    }
    case parquet::kGzip: {
      uLongf n = compressBound(static_cast<uLong>(in.size()));
      std::string out(n, '\0');
      compress2(reinterpret_cast<Bytef*>(out.data()), &n, reinterpret_cast<const Bytef*>(in.data()),
                static_cast<uLong>(in.size()), 6);
      out.resize(n);
      return out;
    }
    case parquet::kZstd: {
      std::string out(ZSTD_compressBound(in.size()), '\0');
      out.resize(ZSTD_compress(out.data(), out.size(), in.data(), in.size(), 3));
      return out;
    }
    default:
      return in;  // UNCOMPRESSED, or a codec the reader must refuse before it decompresses
  }
}

// The whole file. `tweak_header` may change each page header before it is written.
inline std::string BuildForeignFile(
    const ForeignFile& f,
    const std::function<void(std::size_t c, std::size_t g, parquet::PageHeader&)>& tweak_header =
        {}) {
  using namespace parquet;  // NOLINT(google-build-using-namespace)
  std::string file = "PAR1";
  FileMetaData meta;
  meta.created_by = "parquet-cpp-arrow version 14.0.2";
  SchemaElement root;
  root.name = "schema";
  root.num_children = static_cast<std::int32_t>(f.columns.size());
  meta.schema.push_back(root);
  for (const ForeignColumn& c : f.columns) {
    std::vector<SchemaElement> elements = ColumnOf(c).schema();
    const std::int32_t repetition = c.optional ? kOptional : kRequired;
    elements.front().repetition = repetition;
    if (elements.size() == 3) {
      elements.back().repetition = repetition;
      elements.back().name = c.leaf;
    }
    for (SchemaElement& e : elements) meta.schema.push_back(e);
  }
  std::int64_t first_row = 0;
  std::vector<OffsetIndex> indexes;  // [group · columns + column]
  for (std::size_t g = 0; g < f.row_groups.size(); ++g) {
    const std::int64_t rows = f.row_groups[g];
    RowGroup group;
    group.num_rows = rows;
    for (std::size_t ci = 0; ci < f.columns.size(); ++ci) {
      const ForeignColumn& c = f.columns[ci];
      const parquet::Column col = ColumnOf(c);
      const bool list = c.size > 1;
      const int max_def = (c.optional ? 1 : 0) + (list ? 1 + (c.optional ? 1 : 0) : 0);
      const std::int64_t slots = rows * c.size;
      std::vector<ForeignPage> pages;
      if (f.pages) {
        pages = f.pages(ci, g, slots);
      } else {
        for (std::int64_t at = 0; at < slots; at += f.page_values) {
          pages.push_back({std::min(f.page_values, slots - at),
                           static_cast<int>(pages.size()) < f.dictionary_pages, f.v2});
        }
      }
      // The chunk's values, and its dictionary (distinct values in order of appearance).
      std::vector<std::uint64_t> values;
      for (std::int64_t r = 0; r < rows; ++r) {
        for (std::int64_t e = 0; e < c.size; ++e) values.push_back(Value(c, ci, first_row + r, e));
      }
      std::map<std::uint64_t, std::uint32_t> index;
      std::vector<std::uint64_t> dictionary;
      bool any_dictionary = false;
      for (const ForeignPage& p : pages) any_dictionary = any_dictionary || p.dictionary;
      if (any_dictionary) {
        for (const std::uint64_t v : values) {
          if (index.emplace(v, static_cast<std::uint32_t>(dictionary.size())).second) {
            dictionary.push_back(v);
          }
        }
      }
      ColumnMetaData m;
      m.type = col.physical;
      m.path_in_schema = col.path();
      if (list) m.path_in_schema.back() = c.leaf;
      m.codec = f.codec;
      m.num_values = slots;
      const Bytes chunk_start = file.size();
      if (any_dictionary) {
        std::string plain;
        for (std::size_t d = 0; d + f.dictionary_missing < dictionary.size(); ++d) {
          PutLe(plain, dictionary[d], col.value_bytes);
        }
        const std::string body = Compress(f.codec, plain);
        PageHeader h;
        h.type = kDictionaryPage;
        h.uncompressed_page_size = static_cast<std::int32_t>(plain.size());
        h.compressed_page_size = static_cast<std::int32_t>(body.size());
        h.dictionary_page_header = DictionaryPageHeader{
            static_cast<std::int32_t>(dictionary.size() - f.dictionary_missing),
            f.dictionary_encoding};
        if (tweak_header) tweak_header(ci, g, h);
        if (f.write_dictionary_page_offset)
          m.dictionary_page_offset = static_cast<std::int64_t>(file.size());
        file += Encode(h) + body;
        m.encodings.push_back(f.dictionary_encoding);
      }
      m.data_page_offset =
          static_cast<std::int64_t>(f.write_dictionary_page_offset ? file.size() : chunk_start);
      std::vector<PageLocation> locations;
      std::int64_t at = 0;
      for (const ForeignPage& p : pages) {
        std::vector<std::uint32_t> rep, def;
        for (std::int64_t s = at; s < at + p.count; ++s) {
          rep.push_back(s % c.size == 0 ? 0 : 1);
          const bool null = ci == 0 && g == 0 && s == f.null_slot;
          def.push_back(static_cast<std::uint32_t>(null ? max_def - 1 : max_def));
        }
        const std::string rep_bytes = list ? EncodeHybrid(rep, 1) : "";
        const int def_width = max_def == 0 ? 0 : max_def == 1 ? 1 : 2;  // max_def <= 3
        const std::string def_bytes = max_def > 0 ? EncodeHybrid(def, def_width) : "";
        std::string value_bytes;
        if (p.dictionary) {
          std::vector<std::uint32_t> indices;
          std::uint32_t most = 0;
          for (std::int64_t s = at; s < at + p.count; ++s) {
            indices.push_back(index.at(values[static_cast<std::size_t>(s)]));
            most = std::max(most, indices.back());
          }
          int width = 0;
          while (width < 32 && (std::uint64_t{1} << width) <= most) ++width;
          value_bytes =
              static_cast<char>(f.index_width_byte.value_or(width)) + EncodeHybrid(indices, width);
        } else {
          for (std::int64_t s = at; s < at + p.count; ++s) {
            PutLe(value_bytes, values[static_cast<std::size_t>(s)], col.value_bytes);
          }
        }
        PageHeader h;
        std::string body;
        const std::int32_t encoding = p.dictionary ? f.data_dictionary_encoding : kPlain;
        if (p.v2) {
          const std::string compressed = Compress(f.codec, value_bytes);
          body = rep_bytes + def_bytes + compressed;
          h.type = kDataPageV2;
          h.uncompressed_page_size =
              static_cast<std::int32_t>(rep_bytes.size() + def_bytes.size() + value_bytes.size());
          DataPageHeaderV2 d;
          d.num_values = static_cast<std::int32_t>(p.count);
          d.num_nulls = 0;
          std::int32_t starts = 0;
          for (const std::uint32_t r : rep) starts += r == 0 ? 1 : 0;
          d.num_rows = list ? starts : static_cast<std::int32_t>(p.count);
          d.encoding = encoding;
          d.definition_levels_byte_length = static_cast<std::int32_t>(def_bytes.size());
          d.repetition_levels_byte_length = static_cast<std::int32_t>(rep_bytes.size());
          d.is_compressed = f.codec != kUncompressed;
          h.data_page_header_v2 = d;
        } else {
          std::string plain;
          if (list) {
            PutLe(plain, rep_bytes.size(), 4);
            plain += rep_bytes;
          }
          if (max_def > 0) {
            PutLe(plain, def_bytes.size(), 4);
            plain += def_bytes;
          }
          plain += value_bytes;
          body = Compress(f.codec, plain);
          h.type = kDataPage;
          h.uncompressed_page_size = static_cast<std::int32_t>(plain.size());
          h.data_page_header =
              DataPageHeader{static_cast<std::int32_t>(p.count), encoding, kRle, kRle};
        }
        h.compressed_page_size = static_cast<std::int32_t>(body.size());
        if (tweak_header) tweak_header(ci, g, h);
        const std::string page = Encode(h) + body;
        locations.push_back({static_cast<std::int64_t>(file.size()),
                             static_cast<std::int32_t>(page.size()), at / c.size});
        file += page;
        at += p.count;
        if (std::find(m.encodings.begin(), m.encodings.end(), encoding) == m.encodings.end()) {
          m.encodings.push_back(encoding);
        }
      }
      m.total_compressed_size = static_cast<std::int64_t>(file.size() - chunk_start);
      m.total_uncompressed_size = m.total_compressed_size;
      ColumnChunk chunk;
      chunk.file_offset = static_cast<std::int64_t>(chunk_start);
      chunk.meta_data = m;
      group.columns.push_back(chunk);
      indexes.push_back(OffsetIndex{locations});
      group.total_byte_size += m.total_compressed_size;
    }
    meta.row_groups.push_back(group);
    meta.num_rows += rows;
    first_row += rows;
  }
  if (f.offset_index) {
    std::size_t i = 0;
    for (RowGroup& group : meta.row_groups) {
      for (ColumnChunk& chunk : group.columns) {
        const std::string index = Encode(indexes[i++]);
        chunk.offset_index_offset = static_cast<std::int64_t>(file.size());
        chunk.offset_index_length = static_cast<std::int32_t>(index.size());
        file += index;
      }
    }
  }
  const std::string footer = Encode(meta);
  file += footer;
  PutLe(file, footer.size(), 4);
  file += "PAR1";
  return file;
}

// The FileSpec of a dlbench configuration that reads `f` at `path`.
inline FileSpec ForeignSpec(const ForeignFile& f, const std::string& path) {
  FileSpec spec;
  spec.path = path;
  for (const ForeignColumn& c : f.columns)
    spec.parquet_columns.push_back({c.name, c.dtype, c.size, true});
  spec.samples = 0;
  for (const std::int64_t rows : f.row_groups) spec.samples += rows;
  return spec;
}

}  // namespace dlbench::formats::test
