#include "formats/parquet/parquet_reader.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "formats/io/direct_file.h"
#include "formats/io/little_endian.h"
#include "formats/parquet/parquet_codec.h"
#include "formats/parquet/parquet_dictionary.h"
#include "formats/parquet/parquet_layout.h"
#include "formats/parquet/parquet_pages.h"
#include "formats/parquet/parquet_schema.h"
#include "formats/parquet/parquet_values.h"
#include "formats/parquet/thrift_compact.h"
#include "util/error.h"

namespace dlbench::formats {
namespace {

using namespace parquet;  // NOLINT(google-build-using-namespace): the file is about Parquet

// Bytes read from the end at open: the footer and, in dlbench's files, the offset indexes.
constexpr Bytes kTailRead = 64 * KiB;

// A page read, per thread: with read_type on_demand a file is opened for every sample, and
// page-sized allocations per open would cost more than the read.
thread_local std::vector<std::byte> page_scratch;

std::string Quote(const std::string& name) { return "'" + name + "'"; }

// What the reader keeps per column of the layout.
struct ColumnState {
  FileColumn file;
  DictionaryCache dictionary;  // of the chunk samples came from last
};

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
    throw CorruptDataError(path(), "parquet", "offset " + std::to_string(offset) + ": " + what);
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

  ChunkPages make_chunk(std::size_t ci, const ColumnChunk& chunk, std::int64_t rows,
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
    ChunkPages k;
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
        try {
          IndexPages(chunks_[g * layout_.columns.size() + ci], layout_.columns[ci].size,
                     group.num_rows, pages, offset);
        } catch (const PageError& e) {
          corrupt(e.offset(), label(ci) + e.what());
        }
      }
    }
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
    try {
      return LocatePage(
          chunks_[chunk_index], at,
          [this, ci](Bytes offset, Bytes length) { return fetch(offset, length, ci); }, read);
    } catch (const PageError& e) {
      corrupt(e.offset(), label(ci) + e.what());
    }
  }

  // Reads and decodes the dictionary page of chunk `chunk_index` into the column's cache.
  void load_dictionary(std::size_t ci, std::size_t chunk_index, Bytes data_page, Bytes* read) {
    const ChunkPages& chunk = chunks_[chunk_index];
    if (!chunk.dictionary) {
      corrupt(data_page, label(ci) + "a dictionary-encoded page in a column chunk without a " +
                             "dictionary page");
    }
    const PageRef& ref = *chunk.dictionary;
    const std::span<const std::byte> page = fetch(ref.offset, ref.length, ci);
    *read += ref.length;
    try {
      columns_[ci].dictionary.load(chunk_index, page, chunk.codec, chunk.values,
                                   layout_.columns[ci].value_bytes);
    } catch (const thrift::DecodeError& e) {
      corrupt(ref.offset, label(ci) + e.what());
    }
  }

  // Decodes the data page `ref` (header, codec, levels) and copies its value slots [from, to)
  // (chunk positions) into `dst`.
  void read_values(std::size_t ci, std::size_t chunk_index, const PageRef& ref, std::int64_t from,
                   std::int64_t to, std::byte* dst, Bytes* read) {
    ColumnState& state = columns_[ci];
    try {
      DataPage page = DecodeDataPageHeader(fetch(ref.offset, ref.length, ci), ref);
      *read += ref.length;
      if (page.dictionary_encoded() && !state.dictionary.holds(chunk_index)) {
        load_dictionary(ci, chunk_index, ref.offset, read);
        page.bytes = fetch(ref.offset, ref.length, ci);  // the dictionary's read took the buffer
        *read += ref.length;
      }
      CopyPageValues(page, chunks_[chunk_index].codec, layout_.columns[ci], state.file,
                     state.dictionary, from, to, dst);
    } catch (const thrift::DecodeError& e) {
      corrupt(ref.offset, label(ci) + e.what());
    }
  }

  std::unique_ptr<storage::ReadableFile> file_;
  DirectFile* direct_;  // file_ when reading with O_DIRECT, else null
  Layout layout_;
  std::vector<std::size_t> read_columns_;
  Bytes sample_bytes_ = 0;
  Bytes open_bytes_ = 0;
  std::vector<std::int64_t> group_first_;  // first row of each group, then the row count
  std::vector<ColumnState> columns_;       // per layout column
  std::vector<ChunkPages> chunks_;         // [group · columns + column]
};

}  // namespace

std::unique_ptr<FileReader> ParquetReader::open(storage::Env& env, const FileSpec& spec,
                                                const FileReadOptions& options) const {
  return std::make_unique<ParquetFileReader>(OpenForReading(env, spec.path, options.direct), spec);
}

}  // namespace dlbench::formats
