#include "formats/parquet_reader.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>

#include "formats/direct_file.h"
#include "formats/little_endian.h"
#include "formats/parquet_codec.h"
#include "formats/parquet_layout.h"
#include "formats/parquet_levels.h"
#include "formats/parquet_schema.h"
#include "formats/thrift_compact.h"
#include "util/error.h"

namespace dlbench::formats {
namespace {

using namespace parquet;  // NOLINT(google-build-using-namespace): the file is about Parquet

// Bytes read from the end at open: the footer and, in dlbench's files, the offset indexes.
constexpr Bytes kTailRead = 64 * KiB;
// Header scan: the first read of a page header, grown (×4) while it does not decode, up to
// kMaxPageHeader (statistics of numeric columns keep real headers under 100 bytes).
constexpr Bytes kHeaderRead = 256;
constexpr Bytes kMaxPageHeader = 1 * MiB;

// A page read, its decompressed body and a row's dictionary indices, per thread: with read_type
// on_demand a file is opened for every sample, and page-sized allocations per open would cost
// more than the read.
thread_local std::vector<std::byte> page_scratch;
thread_local std::vector<std::byte> body_scratch;
thread_local std::vector<std::uint32_t> index_scratch;

std::string Quote(const std::string& name) { return "'" + name + "'"; }

bool IsDictionaryEncoding(std::int32_t encoding) {
  return encoding == kPlainDictionary || encoding == kRleDictionary;
}

// One page of a column chunk: where it is and which of the chunk's value slots (levels: rows ·
// size, nulls included) it holds.
struct PageRef {
  Bytes offset = 0;        // of the page header
  Bytes length = 0;        // header + body
  std::int64_t first = 0;  // its first value slot in the chunk
  std::int64_t count = 0;  // its value slots
};

// One column chunk (a column in a row group). Its data pages come from the chunk's offset index
// at open, or else from scanning page headers from the chunk's start, lazily, as far as the
// samples asked for need (what a reader without a page index does).
struct Chunk {
  Bytes begin = 0;  // first page: the dictionary page when there is one
  Bytes end = 0;
  Bytes first_data_page = 0;  // ColumnMetaData.data_page_offset
  std::int32_t codec = kUncompressed;
  std::int64_t values = 0;  // value slots: rows · size
  std::optional<PageRef> dictionary;
  std::vector<PageRef> pages;  // the data pages found so far
  Bytes scan = 0;              // where the next page header is; end once every page is found

  std::int64_t found() const { return pages.empty() ? 0 : pages.back().first + pages.back().count; }
};

// What the reader keeps per column of the layout.
struct ColumnState {
  FileColumn file;
  // The dictionary (PLAIN values) of chunk `dictionary_chunk`, kept while samples come from it.
  std::vector<std::byte> dictionary;
  std::uint64_t dictionary_size = 0;
  std::size_t dictionary_chunk = SIZE_MAX;
};

// Copies n values of `c` from their on-disk width to the sample's (8/16-bit integers are stored
// as INT32: their low bytes, little-endian).
template <int kItem>
void NarrowValues(const std::byte* src, int value_bytes, std::int64_t n, std::byte* dst) {
  for (std::int64_t i = 0; i < n; ++i) std::memcpy(dst + i * kItem, src + i * value_bytes, kItem);
}

void CopyValues(const Column& c, const std::byte* src, std::int64_t n, std::byte* dst) {
  if (c.value_bytes == c.itemsize) {
    std::memcpy(dst, src, static_cast<std::size_t>(n) * static_cast<std::size_t>(c.itemsize));
  } else if (c.itemsize == 1) {
    NarrowValues<1>(src, c.value_bytes, n, dst);
  } else {
    NarrowValues<2>(src, c.value_bytes, n, dst);
  }
}

// dst[i] = dictionary entry index[i], narrowed like CopyValues.
template <int kItem>
void GatherValues(const std::byte* dictionary, int value_bytes, const std::uint32_t* index,
                  std::int64_t n, std::byte* dst) {
  for (std::int64_t i = 0; i < n; ++i) {
    std::memcpy(dst + i * kItem, dictionary + static_cast<std::size_t>(index[i]) * value_bytes,
                kItem);
  }
}

void GatherValues(const Column& c, const std::byte* dictionary, const std::uint32_t* index,
                  std::int64_t n, std::byte* dst) {
  switch (c.itemsize) {
    case 1:
      return GatherValues<1>(dictionary, c.value_bytes, index, n, dst);
    case 2:
      return GatherValues<2>(dictionary, c.value_bytes, index, n, dst);
    case 4:
      return GatherValues<4>(dictionary, c.value_bytes, index, n, dst);
    default:
      return GatherValues<8>(dictionary, c.value_bytes, index, n, dst);
  }
}

// The 4-byte length prefix of a data page v1's level section at `*pos`, and the section.
std::span<const std::byte> V1LevelSection(std::span<const std::byte> page, std::size_t* pos,
                                          const char* what) {
  if (page.size() - *pos < 4) {
    throw thrift::DecodeError(std::string("page too short for its ") + what + " levels");
  }
  const std::uint64_t length = GetLe(page.data() + *pos, 4);
  *pos += 4;
  if (length > page.size() - *pos) {
    throw thrift::DecodeError(std::string(what) + " levels of " + std::to_string(length) +
                              " bytes run past the page");
  }
  const std::span<const std::byte> section = page.subspan(*pos, length);
  *pos += length;
  return section;
}

class ParquetFileReader final : public FileReader {
 public:
  ParquetFileReader(OpenedFile opened, const FileSpec& spec)
      : file_(std::move(opened.file)), direct_(opened.direct_file), layout_(MakeLayout(spec)) {
    for (std::size_t c = 0; c < layout_.columns.size(); ++c) {
      if (!layout_.columns[c].read) continue;
      read_columns_.push_back(c);
      sample_bytes_ += layout_.columns[c].row_bytes();
    }
    open();
  }

  const std::string& path() const override { return file_->path(); }
  std::int64_t samples() const override { return layout_.rows; }
  Bytes sample_bytes() const override { return sample_bytes_; }
  Bytes open_bytes() const override { return open_bytes_; }

  Bytes read_sample(std::int64_t k, std::span<std::byte> out) override {
    check_request(k, out);
    if (direct_) direct_->discard_staged();
    const Bytes before = direct_ ? direct_->bytes_read() : 0;
    const auto g = static_cast<std::size_t>(
        std::upper_bound(group_first_.begin(), group_first_.end(), k) - group_first_.begin() - 1);
    const std::int64_t row = k - group_first_[g];
    Bytes read = 0;
    std::byte* dst = out.data();
    for (const std::size_t ci : read_columns_) {
      const Column& c = layout_.columns[ci];
      const std::size_t chunk_index = g * layout_.columns.size() + ci;
      // The row's values are value slots [row · size, (row + 1) · size) of the chunk: every
      // row holds `size` values (the levels of each page read are checked to say so). They
      // may span pages: pyarrow without a page index cuts pages inside rows.
      std::int64_t at = row * c.size;
      const std::int64_t end = at + c.size;
      while (at < end) {
        const PageRef page = locate(ci, chunk_index, at, &read);
        const std::int64_t upto = std::min(end, page.first + page.count);
        read_values(ci, chunk_index, page, at, upto, dst, &read);
        dst += static_cast<std::size_t>(upto - at) * static_cast<std::size_t>(c.itemsize);
        at = upto;
      }
    }
    return direct_ ? direct_->bytes_read() - before : read;
  }

 private:
  [[noreturn]] void corrupt(Bytes offset, const std::string& what) const {
    throw IoError("read", path(), 0, "offset " + std::to_string(offset) + ": " + what);
  }

  std::string label(std::size_t ci) const {
    return "column " + Quote(layout_.columns[ci].name) + ": ";
  }

  void read_exactly(Bytes offset, std::byte* data, Bytes length, const char* what) {
    const Bytes got = file_->read_at(offset, data, length);
    open_bytes_ += got;
    if (got != length) {
      corrupt(offset, std::string("short read of ") + what + ": got " + std::to_string(got) +
                          " of " + std::to_string(length) + " bytes (truncated file?)");
    }
  }

  void open() {
    const Bytes size = file_->size();
    if (size < 12) {
      corrupt(0, "not a Parquet file: " + std::to_string(size) +
                     " bytes, less than the 12 of \"PAR1\" + footer length + \"PAR1\"");
    }
    std::vector<std::byte> tail(std::min(size, kTailRead));
    Bytes tail_start = size - tail.size();
    read_exactly(tail_start, tail.data(), tail.size(), "the footer");
    if (std::memcmp(tail.data() + tail.size() - 4, kMagic, 4) != 0) {
      corrupt(size - 4, "no \"PAR1\" at the end of the file (not Parquet, or truncated)");
    }
    const Bytes footer_length = GetLe(tail.data() + tail.size() - 8, 4);
    if (footer_length > size - 12) {
      corrupt(size - 8, "footer length " + std::to_string(footer_length) + " exceeds the " +
                            std::to_string(size) + "-byte file (truncated?)");
    }
    const Bytes footer_start = size - 8 - footer_length;
    if (footer_start < tail_start) {
      tail.resize(size - footer_start);
      tail_start = footer_start;
      read_exactly(tail_start, tail.data(), tail.size(), "the footer");
    }
    std::byte head[4];
    read_exactly(0, head, 4, "the leading magic");
    if (std::memcmp(head, kMagic, 4) != 0) corrupt(0, "no \"PAR1\" at the start of the file");
    FileMetaData meta;
    try {
      meta = DecodeFileMetaData(
          std::span<const std::byte>(tail).subspan(footer_start - tail_start, footer_length));
    } catch (const thrift::DecodeError& e) {
      corrupt(footer_start, std::string("corrupted footer: ") + e.what());
    }
    check(meta, footer_start);
    load_offset_indexes(meta, footer_start, tail, tail_start);
  }

  void check(const FileMetaData& meta, Bytes footer_start) {
    std::vector<FileColumn> columns;
    try {
      columns = MatchSchema(meta.schema, layout_);
    } catch (const thrift::DecodeError& e) {
      corrupt(footer_start, e.what());
    }
    columns_.resize(columns.size());
    for (std::size_t ci = 0; ci < columns.size(); ++ci) columns_[ci].file = std::move(columns[ci]);
    if (meta.num_rows != layout_.rows) {
      corrupt(footer_start, "the file holds " + std::to_string(meta.num_rows) + " rows, expected " +
                                std::to_string(layout_.rows) + " (dataset.num_samples_per_file)");
    }
    group_first_.assign(1, 0);
    for (const RowGroup& group : meta.row_groups) {
      if (group.num_rows < 1 || group.num_rows > layout_.rows - group_first_.back() ||
          group.columns.size() != layout_.columns.size()) {
        corrupt(footer_start, "row group " + std::to_string(group_first_.size() - 1) + " has " +
                                  std::to_string(group.num_rows) + " rows and " +
                                  std::to_string(group.columns.size()) + " columns");
      }
      group_first_.push_back(group_first_.back() + group.num_rows);
      for (std::size_t ci = 0; ci < layout_.columns.size(); ++ci) {
        chunks_.push_back(make_chunk(ci, group.columns[ci], group.num_rows, footer_start));
      }
    }
    if (group_first_.back() != layout_.rows) {
      corrupt(footer_start, "the row groups hold " + std::to_string(group_first_.back()) +
                                " rows, the file " + std::to_string(layout_.rows));
    }
  }

  Chunk make_chunk(std::size_t ci, const ColumnChunk& chunk, std::int64_t rows,
                   Bytes footer_start) const {
    const Column& c = layout_.columns[ci];
    const std::string where = label(ci);
    if (chunk.file_path) corrupt(footer_start, where + "data in another file is not supported");
    if (!chunk.meta_data) corrupt(footer_start, where + "no column metadata");
    const ColumnMetaData& m = *chunk.meta_data;
    if (m.type != c.physical || m.path_in_schema != columns_[ci].file.path) {
      corrupt(footer_start, where + "type or path differs from the schema");
    }
    if (!CodecSupported(m.codec)) {
      corrupt(footer_start, where + "codec " + std::to_string(m.codec) + " (" + CodecName(m.codec) +
                                ") is not read by dlbench (UNCOMPRESSED, SNAPPY, GZIP, ZSTD)");
    }
    if (m.num_values != rows * c.size) {
      corrupt(footer_start, where + std::to_string(m.num_values) + " values, expected " +
                                std::to_string(rows * c.size) + " (" + std::to_string(rows) +
                                " rows of " + std::to_string(c.size) + ", no nulls)");
    }
    // The dictionary page comes first; some writers leave dictionary_page_offset out (or 0) and
    // point data_page_offset at it, which the header scan handles.
    Bytes begin = static_cast<Bytes>(std::max<std::int64_t>(m.data_page_offset, 0));
    if (m.dictionary_page_offset && *m.dictionary_page_offset >= 4 &&
        *m.dictionary_page_offset < m.data_page_offset) {
      begin = static_cast<Bytes>(*m.dictionary_page_offset);
    }
    if (m.data_page_offset < 4 || m.total_compressed_size <= 0 || begin > footer_start ||
        static_cast<Bytes>(m.total_compressed_size) > footer_start - begin ||
        static_cast<Bytes>(m.data_page_offset) >=
            begin + static_cast<Bytes>(m.total_compressed_size)) {
      corrupt(footer_start, where + "pages [" + std::to_string(begin) + ", +" +
                                std::to_string(m.total_compressed_size) +
                                ") lie outside the data region");
    }
    Chunk k;
    k.begin = begin;
    k.end = begin + static_cast<Bytes>(m.total_compressed_size);
    k.first_data_page = static_cast<Bytes>(m.data_page_offset);
    k.codec = m.codec;
    k.values = rows * c.size;
    k.scan = begin;
    return k;
  }

  // The chunks with an offset index get their pages from it (one more read at open when the
  // indexes are not in the tail already read); the others are scanned when read.
  void load_offset_indexes(const FileMetaData& meta, Bytes footer_start,
                           std::vector<std::byte>& tail, Bytes tail_start) {
    Bytes lo = footer_start;
    for (const RowGroup& group : meta.row_groups) {
      for (const ColumnChunk& chunk : group.columns) {
        if (!chunk.offset_index_offset || !chunk.offset_index_length) continue;
        const std::int64_t offset = *chunk.offset_index_offset;
        const std::int64_t length = *chunk.offset_index_length;
        if (offset < 4 || length <= 0 || static_cast<Bytes>(offset) > footer_start ||
            static_cast<Bytes>(length) > footer_start - static_cast<Bytes>(offset)) {
          corrupt(footer_start, "an offset index outside the file");
        }
        lo = std::min(lo, static_cast<Bytes>(offset));
      }
    }
    if (lo < tail_start) {  // not in the tail already read: one more read
      std::vector<std::byte> more(tail_start - lo);
      read_exactly(lo, more.data(), more.size(), "the offset indexes");
      more.insert(more.end(), tail.begin(), tail.end());
      tail.swap(more);
      tail_start = lo;
    }
    for (std::size_t g = 0; g < meta.row_groups.size(); ++g) {
      const RowGroup& group = meta.row_groups[g];
      for (std::size_t ci = 0; ci < group.columns.size(); ++ci) {
        const ColumnChunk& chunk = group.columns[ci];
        if (!chunk.offset_index_offset || !chunk.offset_index_length) continue;
        const auto offset = static_cast<Bytes>(*chunk.offset_index_offset);
        std::vector<PageLocation> pages;
        try {
          pages = DecodeOffsetIndex(
                      std::span<const std::byte>(tail).subspan(
                          offset - tail_start, static_cast<Bytes>(*chunk.offset_index_length)))
                      .page_locations;
        } catch (const thrift::DecodeError& e) {
          corrupt(offset, label(ci) + "corrupted offset index: " + e.what());
        }
        index_pages(ci, chunks_[g * layout_.columns.size() + ci], group.num_rows, pages, offset);
      }
    }
  }

  // Checks an offset index's pages (contiguous from the first data page to the chunk's end,
  // first rows increasing from 0) and takes them as the chunk's pages. Pages that start rows
  // (what writers of page indexes guarantee) of `size` values each hold (rows · size) slots;
  // each page's header confirms its count when read.
  void index_pages(std::size_t ci, Chunk& chunk, std::int64_t rows,
                   const std::vector<PageLocation>& pages, Bytes index_offset) {
    const std::int64_t size = layout_.columns[ci].size;
    Bytes next = chunk.first_data_page;
    for (std::size_t p = 0; p < pages.size(); ++p) {
      const PageLocation& loc = pages[p];
      const bool rows_ok =
          p == 0 ? loc.first_row_index == 0
                 : loc.first_row_index > pages[p - 1].first_row_index && loc.first_row_index < rows;
      if (!rows_ok || loc.offset < 0 || static_cast<Bytes>(loc.offset) != next ||
          loc.compressed_page_size <= 0) {
        corrupt(index_offset, label(ci) + "page " + std::to_string(p) +
                                  " of the offset index (offset " + std::to_string(loc.offset) +
                                  ", " + std::to_string(loc.compressed_page_size) +
                                  " bytes, first row " + std::to_string(loc.first_row_index) +
                                  ") does not follow the pages before it");
      }
      next += static_cast<Bytes>(loc.compressed_page_size);
    }
    if (pages.empty() || next != chunk.end) {
      corrupt(index_offset, label(ci) + "the offset index's pages do not cover the column chunk");
    }
    for (std::size_t p = 0; p < pages.size(); ++p) {
      const std::int64_t last = p + 1 < pages.size() ? pages[p + 1].first_row_index : rows;
      chunk.pages.push_back(
          {static_cast<Bytes>(pages[p].offset), static_cast<Bytes>(pages[p].compressed_page_size),
           pages[p].first_row_index * size, (last - pages[p].first_row_index) * size});
    }
    if (chunk.begin < chunk.first_data_page) {
      chunk.dictionary = PageRef{chunk.begin, chunk.first_data_page - chunk.begin, 0, 0};
    }
    chunk.scan = chunk.end;
  }

  // [offset, offset + length) of the file, in the thread's page buffer (or, with O_DIRECT, in
  // the staging buffer): valid until the next fetch.
  std::span<const std::byte> fetch(Bytes offset, Bytes length, std::size_t ci) {
    std::span<const std::byte> page;
    if (direct_) {
      page = direct_->view(offset, length);
    } else {
      if (page_scratch.size() < length) page_scratch.resize(length);
      page = std::span<const std::byte>(page_scratch.data(),
                                        file_->read_at(offset, page_scratch.data(), length));
    }
    if (page.size() != length) {
      corrupt(offset, label(ci) + std::to_string(length) + " bytes of pages, got " +
                          std::to_string(page.size()) + " (truncated file?)");
    }
    return page;
  }

  // The page holding value slot `at` of chunk `chunk_index`, scanning page headers as far as
  // needed.
  PageRef locate(std::size_t ci, std::size_t chunk_index, std::int64_t at, Bytes* read) {
    Chunk& chunk = chunks_[chunk_index];
    while (chunk.found() <= at) {
      if (chunk.scan >= chunk.end) {
        corrupt(chunk.begin,
                label(ci) + "the column chunk's pages end before value " + std::to_string(at));
      }
      scan_page(ci, chunk, read);
    }
    const auto it = std::upper_bound(chunk.pages.begin(), chunk.pages.end(), at,
                                     [](std::int64_t v, const PageRef& p) { return v < p.first; });
    return *(it - 1);
  }

  // Decodes the page header at chunk.scan and records the page.
  void scan_page(std::size_t ci, Chunk& chunk, Bytes* read) {
    const Bytes at = chunk.scan;
    const Bytes left = chunk.end - at;
    Bytes window = std::min(kHeaderRead, left);
    PageHeader h;
    std::size_t header_length = 0;
    for (;;) {
      const std::span<const std::byte> bytes = fetch(at, window, ci);
      *read += window;
      try {
        h = DecodePageHeader(bytes, &header_length);
        break;
      } catch (const thrift::DecodeError& e) {
        if (window == left || window >= kMaxPageHeader) {
          corrupt(at, label(ci) + "corrupted page header: " + e.what());
        }
        window = std::min({window * 4, left, kMaxPageHeader});
      }
    }
    if (h.compressed_page_size < 0 || h.uncompressed_page_size < 0 ||
        static_cast<Bytes>(h.compressed_page_size) > left - header_length) {
      corrupt(at, label(ci) + "a page of " + std::to_string(header_length) + " + " +
                      std::to_string(h.compressed_page_size) +
                      " bytes runs past the column chunk's end at " + std::to_string(chunk.end));
    }
    const Bytes length = header_length + static_cast<Bytes>(h.compressed_page_size);
    if (h.type == kDictionaryPage) {
      if (!h.dictionary_page_header || chunk.dictionary || !chunk.pages.empty()) {
        corrupt(at, label(ci) + "a dictionary page without its header or after data pages");
      }
      chunk.dictionary = PageRef{at, length, 0, h.dictionary_page_header->num_values};
    } else if (h.type == kDataPage || h.type == kDataPageV2) {
      const std::int64_t count = h.data_page_header      ? h.data_page_header->num_values
                                 : h.data_page_header_v2 ? h.data_page_header_v2->num_values
                                                         : -1;
      const std::int64_t first = chunk.found();
      if (count <= 0 || count > chunk.values - first) {
        corrupt(at, label(ci) + "a data page of " + std::to_string(count) + " values after " +
                        std::to_string(first) + " of the column chunk's " +
                        std::to_string(chunk.values));
      }
      chunk.pages.push_back({at, length, first, count});
    } else if (h.type != kIndexPage) {
      corrupt(at, label(ci) + "page type " + std::to_string(h.type));
    }
    chunk.scan = at + length;
    if (chunk.scan == chunk.end && chunk.found() != chunk.values) {
      corrupt(at, label(ci) + "the column chunk's pages hold " + std::to_string(chunk.found()) +
                      " values, its metadata " + std::to_string(chunk.values));
    }
  }

  // Reads and decodes the dictionary page of chunk `chunk_index` into the column's state.
  void load_dictionary(std::size_t ci, std::size_t chunk_index, Bytes data_page, Bytes* read) {
    ColumnState& state = columns_[ci];
    const Chunk& chunk = chunks_[chunk_index];
    if (!chunk.dictionary) {
      corrupt(data_page, label(ci) + "a dictionary-encoded page in a column chunk without a " +
                             "dictionary page");
    }
    const PageRef& ref = *chunk.dictionary;
    const std::span<const std::byte> page = fetch(ref.offset, ref.length, ci);
    *read += ref.length;
    state.dictionary_chunk = SIZE_MAX;
    try {
      std::size_t header_length = 0;
      const PageHeader h = DecodePageHeader(page, &header_length);
      if (h.type != kDictionaryPage || !h.dictionary_page_header) {
        throw thrift::DecodeError("page type " + std::to_string(h.type) +
                                  " where the dictionary page should be");
      }
      const DictionaryPageHeader& d = *h.dictionary_page_header;
      const Column& c = layout_.columns[ci];
      if (h.compressed_page_size < 0 ||
          header_length + static_cast<Bytes>(h.compressed_page_size) != ref.length) {
        throw thrift::DecodeError("dictionary page header says " + std::to_string(header_length) +
                                  " + " + std::to_string(h.compressed_page_size) +
                                  " bytes, the column chunk " + std::to_string(ref.length));
      }
      if (d.encoding != kPlain && d.encoding != kPlainDictionary) {
        throw thrift::DecodeError("dictionary encoding " + std::to_string(d.encoding) +
                                  " (PLAIN expected)");
      }
      // No more entries than the chunk has values: the bound keeps a corrupt header from
      // allocating gigabytes.
      if (d.num_values < 0 || d.num_values > chunk.values || h.uncompressed_page_size < 0 ||
          static_cast<Bytes>(h.uncompressed_page_size) !=
              static_cast<Bytes>(d.num_values) * static_cast<Bytes>(c.value_bytes)) {
        throw thrift::DecodeError("a dictionary of " + std::to_string(d.num_values) +
                                  " values in " + std::to_string(h.uncompressed_page_size) +
                                  " bytes");
      }
      state.dictionary.resize(static_cast<std::size_t>(h.uncompressed_page_size));
      Decompress(chunk.codec, page.subspan(header_length), state.dictionary);
      state.dictionary_size = static_cast<std::uint64_t>(d.num_values);
    } catch (const thrift::DecodeError& e) {
      corrupt(ref.offset, label(ci) + e.what());
    }
    state.dictionary_chunk = chunk_index;
  }

  // Decodes the data page `ref` (header, codec, levels) and copies its value slots [from, to)
  // (chunk positions) into `dst`.
  void read_values(std::size_t ci, std::size_t chunk_index, const PageRef& ref, std::int64_t from,
                   std::int64_t to, std::byte* dst, Bytes* read) {
    const Column& c = layout_.columns[ci];
    const ColumnState& state = columns_[ci];
    std::span<const std::byte> page = fetch(ref.offset, ref.length, ci);
    *read += ref.length;
    PageHeader h;
    std::size_t header_length = 0;
    try {
      h = DecodePageHeader(page, &header_length);
    } catch (const thrift::DecodeError& e) {
      corrupt(ref.offset, label(ci) + "corrupted page header: " + e.what());
    }
    const bool v2 = h.type == kDataPageV2 && h.data_page_header_v2;
    if (!v2 && !(h.type == kDataPage && h.data_page_header)) {
      corrupt(ref.offset,
              label(ci) + "page type " + std::to_string(h.type) + " where a data page should be");
    }
    const std::int32_t count =
        v2 ? h.data_page_header_v2->num_values : h.data_page_header->num_values;
    const std::int32_t encoding =
        v2 ? h.data_page_header_v2->encoding : h.data_page_header->encoding;
    if (h.compressed_page_size < 0 || h.uncompressed_page_size < 0 ||
        header_length + static_cast<Bytes>(h.compressed_page_size) != ref.length) {
      corrupt(ref.offset, label(ci) + "page header says " + std::to_string(header_length) + " + " +
                              std::to_string(h.compressed_page_size) + " bytes, expected " +
                              std::to_string(ref.length) + " in all");
    }
    if (count != ref.count) {
      corrupt(ref.offset, label(ci) + "page of " + std::to_string(count) + " values, expected " +
                              std::to_string(ref.count));
    }
    if (encoding != kPlain && !IsDictionaryEncoding(encoding)) {
      corrupt(ref.offset, label(ci) + "value encoding " + std::to_string(encoding) +
                              " (dlbench reads PLAIN and dictionary-encoded pages)");
    }
    if (IsDictionaryEncoding(encoding) && state.dictionary_chunk != chunk_index) {
      load_dictionary(ci, chunk_index, ref.offset, read);
      page = fetch(ref.offset, ref.length, ci);  // the dictionary's read took the buffer
      *read += ref.length;
    }
    // Values, at most 16 bytes of levels or indices per value and the length prefixes: a larger
    // size is corrupt (and would make the decompression buffer grow to it).
    const Bytes most = static_cast<Bytes>(count) * (static_cast<Bytes>(c.value_bytes) + 16) + 64;
    if (static_cast<Bytes>(h.uncompressed_page_size) > most) {
      corrupt(ref.offset, label(ci) + "uncompressed page size " +
                              std::to_string(h.uncompressed_page_size) + " exceeds the " +
                              std::to_string(most) + " bytes " + std::to_string(count) +
                              " values can take");
    }
    const FileColumn& f = state.file;
    try {
      const std::span<const std::byte> body = page.subspan(header_length);
      std::span<const std::byte> repetition, definition, values;
      if (v2) {
        const DataPageHeaderV2& d = *h.data_page_header_v2;
        const auto rl = static_cast<std::int64_t>(d.repetition_levels_byte_length);
        const auto dl = static_cast<std::int64_t>(d.definition_levels_byte_length);
        if (rl < 0 || dl < 0 || rl + dl > h.compressed_page_size ||
            rl + dl > h.uncompressed_page_size || (f.max_repetition == 0 && rl != 0) ||
            (f.max_definition == 0 && dl != 0)) {
          throw thrift::DecodeError("levels of " + std::to_string(rl) + " + " + std::to_string(dl) +
                                    " bytes in a page of " +
                                    std::to_string(h.compressed_page_size));
        }
        if (d.num_nulls != 0) {
          throw thrift::DecodeError("a page of " + std::to_string(d.num_nulls) +
                                    " nulls; DLIO samples have none");
        }
        repetition = body.subspan(0, static_cast<std::size_t>(rl));
        definition = body.subspan(static_cast<std::size_t>(rl), static_cast<std::size_t>(dl));
        values = decompressed(chunk_index, d.is_compressed,
                              body.subspan(static_cast<std::size_t>(rl + dl)),
                              static_cast<Bytes>(h.uncompressed_page_size - rl - dl));
      } else {
        const DataPageHeader& d = *h.data_page_header;
        const bool bad_repetition = f.max_repetition > 0 && d.repetition_level_encoding != kRle;
        if (bad_repetition || (f.max_definition > 0 && d.definition_level_encoding != kRle)) {
          throw thrift::DecodeError("level encoding " +
                                    std::to_string(bad_repetition ? d.repetition_level_encoding
                                                                  : d.definition_level_encoding) +
                                    " (dlbench reads RLE levels)");
        }
        const std::span<const std::byte> all =
            decompressed(chunk_index, true, body, static_cast<Bytes>(h.uncompressed_page_size));
        std::size_t pos = 0;
        if (f.max_repetition > 0) repetition = V1LevelSection(all, &pos, "repetition");
        if (f.max_definition > 0) definition = V1LevelSection(all, &pos, "definition");
        values = all.subspan(pos);
      }
      if (f.max_repetition > 0) CheckRepetitionLevels(repetition, ref.first, count, c.size);
      if (f.max_definition > 0) {
        CheckDefinitionLevels(definition, ref.first, count, f.max_definition, c.size);
      }
      const std::int64_t n = to - from;
      const std::int64_t skip = from - ref.first;
      if (encoding == kPlain) {
        const Bytes want = static_cast<Bytes>(count) * static_cast<Bytes>(c.value_bytes);
        if (values.size() != want) {
          throw thrift::DecodeError(std::to_string(values.size()) + " bytes of values, expected " +
                                    std::to_string(want));
        }
        CopyValues(c, values.data() + skip * c.value_bytes, n, dst);
      } else {
        if (index_scratch.size() < static_cast<std::size_t>(n)) {
          index_scratch.resize(static_cast<std::size_t>(n));
        }
        const std::span<std::uint32_t> indices(index_scratch.data(), static_cast<std::size_t>(n));
        DecodeDictionaryIndices(values, skip, indices, state.dictionary_size);
        GatherValues(c, state.dictionary.data(), indices.data(), n, dst);
      }
    } catch (const thrift::DecodeError& e) {
      corrupt(ref.offset, label(ci) + e.what());
    }
  }

  // A page body (or v2's values) after the chunk's codec: in place when stored uncompressed,
  // else decompressed into the thread's body buffer.
  std::span<const std::byte> decompressed(std::size_t chunk_index, bool compressed,
                                          std::span<const std::byte> in, Bytes size) {
    const std::int32_t codec = chunks_[chunk_index].codec;
    if (!compressed || codec == kUncompressed) {
      if (in.size() != size) {
        throw thrift::DecodeError("an uncompressed page body of " + std::to_string(in.size()) +
                                  " bytes, its header says " + std::to_string(size));
      }
      return in;
    }
    if (body_scratch.size() < size) body_scratch.resize(size);
    const std::span<std::byte> out(body_scratch.data(), static_cast<std::size_t>(size));
    Decompress(codec, in, out);
    return out;
  }

  std::unique_ptr<storage::ReadableFile> file_;
  DirectFile* direct_;  // file_ when reading with O_DIRECT, else null
  Layout layout_;
  std::vector<std::size_t> read_columns_;
  Bytes sample_bytes_ = 0;
  Bytes open_bytes_ = 0;
  std::vector<std::int64_t> group_first_;  // first row of each group, then the row count
  std::vector<ColumnState> columns_;       // per layout column
  std::vector<Chunk> chunks_;              // [group · columns + column]
};

}  // namespace

std::unique_ptr<FileReader> ParquetReader::open(storage::Env& env, const FileSpec& spec,
                                                const FileReadOptions& options) const {
  return std::make_unique<ParquetFileReader>(OpenForReading(env, spec.path, options.direct), spec);
}

}  // namespace dlbench::formats
