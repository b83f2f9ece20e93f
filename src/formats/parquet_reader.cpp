#include "formats/parquet_reader.h"

#include <zlib.h>

#include <algorithm>
#include <cstring>

#include "formats/direct_file.h"
#include "formats/little_endian.h"
#include "formats/parquet_layout.h"
#include "formats/thrift_compact.h"
#include "util/error.h"

namespace dlbench::formats {
namespace {

using namespace parquet;  // NOLINT(google-build-using-namespace): the file is about Parquet

// Bytes read from the end at open: the footer and, in dlbench's files, the offset indexes.
constexpr Bytes kTailRead = 64 * KiB;

// A page read and its gunzipped body, per thread: with read_type on_demand a file is opened for
// every sample, and a page-sized allocation per open would cost more than the read.
thread_local std::vector<std::byte> page_scratch;
thread_local std::vector<std::byte> inflate_scratch;

std::string Quote(const std::string& name) { return "'" + name + "'"; }

std::string Describe(const SchemaElement& e) {
  std::string s = Quote(e.name);
  if (e.type) s += " type " + std::to_string(*e.type);
  if (e.repetition) s += " repetition " + std::to_string(*e.repetition);
  if (e.num_children) s += " children " + std::to_string(*e.num_children);
  return s;
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
    const std::int64_t group_rows = group_first_[g + 1] - group_first_[g];
    Bytes read = 0;
    std::byte* dst = out.data();
    for (const std::size_t ci : read_columns_) {
      const Column& c = layout_.columns[ci];
      const std::vector<PageLocation>& pages = chunks_[g * layout_.columns.size() + ci];
      const auto it = std::upper_bound(pages.begin(), pages.end(), row,
                                       [](std::int64_t r, const PageLocation& p) {
                                         return r < p.first_row_index;
                                       }) -
                      1;
      const std::int64_t page_rows =
          (it + 1 == pages.end() ? group_rows : (it + 1)->first_row_index) - it->first_row_index;
      const std::span<const std::byte> page = fetch(*it, c);
      read += static_cast<Bytes>(it->compressed_page_size);
      copy_row(c, page, static_cast<Bytes>(it->offset), page_rows, row - it->first_row_index, dst);
      dst += c.row_bytes();
    }
    return direct_ ? direct_->bytes_read() - before : read;
  }

 private:
  [[noreturn]] void corrupt(Bytes offset, const std::string& what) const {
    throw IoError("read", path(), 0, "offset " + std::to_string(offset) + ": " + what);
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
    const std::vector<SchemaElement> expected = layout_.schema();
    for (std::size_t i = 0; i < std::max(expected.size(), meta.schema.size()); ++i) {
      if (i < expected.size() && i < meta.schema.size() && expected[i] == meta.schema[i]) continue;
      corrupt(footer_start, "schema element " + std::to_string(i) + " is " +
                                (i < meta.schema.size() ? Describe(meta.schema[i]) : "missing") +
                                ", expected " +
                                (i < expected.size() ? Describe(expected[i]) : "none") +
                                " (dataset.parquet.columns, dataset.record_element_type)");
    }
    if (meta.num_rows != layout_.rows) {
      corrupt(footer_start, "the file holds " + std::to_string(meta.num_rows) + " rows, expected " +
                                std::to_string(layout_.rows) + " (dataset.num_samples_per_file)");
    }
    group_first_.assign(1, 0);
    for (const RowGroup& group : meta.row_groups) {
      if (group.num_rows < 1 || group.columns.size() != layout_.columns.size()) {
        corrupt(footer_start, "row group " + std::to_string(group_first_.size() - 1) + " has " +
                                  std::to_string(group.num_rows) + " rows and " +
                                  std::to_string(group.columns.size()) + " columns");
      }
      group_first_.push_back(group_first_.back() + group.num_rows);
      for (std::size_t ci = 0; ci < layout_.columns.size(); ++ci) {
        check_chunk(layout_.columns[ci], group.columns[ci], group.num_rows, footer_start);
      }
    }
    if (group_first_.back() != layout_.rows) {
      corrupt(footer_start, "the row groups hold " + std::to_string(group_first_.back()) +
                                " rows, the file " + std::to_string(layout_.rows));
    }
  }

  void check_chunk(const Column& c, const ColumnChunk& chunk, std::int64_t rows,
                   Bytes footer_start) {
    const std::string where = "column " + Quote(c.name) + ": ";
    if (chunk.file_path) corrupt(footer_start, where + "data in another file is not supported");
    if (!chunk.meta_data) corrupt(footer_start, where + "no column metadata");
    const ColumnMetaData& m = *chunk.meta_data;
    if (m.type != c.physical || m.path_in_schema != c.path()) {
      corrupt(footer_start, where + "type or path differs from the schema");
    }
    if (m.codec != layout_.codec) {
      corrupt(footer_start, where + "codec " + std::to_string(m.codec) + ", expected " +
                                std::to_string(layout_.codec) + " (dataset.compression)");
    }
    if (m.num_values != rows * c.size) {
      corrupt(footer_start, where + std::to_string(m.num_values) + " values, expected " +
                                std::to_string(rows * c.size));
    }
    if (m.dictionary_page_offset) {
      corrupt(footer_start, where + "dictionary pages are not supported (PLAIN only)");
    }
    const auto in_file = [&](std::int64_t begin, std::int64_t length) {
      return begin >= 4 && length > 0 && static_cast<Bytes>(begin) <= footer_start &&
             static_cast<Bytes>(length) <= footer_start - static_cast<Bytes>(begin);
    };
    if (!in_file(m.data_page_offset, m.total_compressed_size)) {
      corrupt(footer_start, where + "pages [" + std::to_string(m.data_page_offset) + ", +" +
                                std::to_string(m.total_compressed_size) +
                                ") lie outside the data region");
    }
    if (!chunk.offset_index_offset || !chunk.offset_index_length) {
      corrupt(footer_start, where + "no offset index (page index); dlbench finds rows through it");
    }
    if (!in_file(*chunk.offset_index_offset, *chunk.offset_index_length)) {
      corrupt(footer_start, where + "offset index outside the file");
    }
  }

  void load_offset_indexes(const FileMetaData& meta, Bytes footer_start,
                           std::vector<std::byte>& tail, Bytes tail_start) {
    Bytes lo = footer_start;
    for (const RowGroup& group : meta.row_groups) {
      for (const ColumnChunk& chunk : group.columns) {
        lo = std::min(lo, static_cast<Bytes>(*chunk.offset_index_offset));
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
        const auto offset = static_cast<Bytes>(*chunk.offset_index_offset);
        std::vector<PageLocation> pages;
        try {
          pages = DecodeOffsetIndex(
                      std::span<const std::byte>(tail).subspan(
                          offset - tail_start, static_cast<Bytes>(*chunk.offset_index_length)))
                      .page_locations;
        } catch (const thrift::DecodeError& e) {
          corrupt(offset, "column " + Quote(layout_.columns[ci].name) +
                              ": corrupted offset index: " + e.what());
        }
        check_pages(layout_.columns[ci], *chunk.meta_data, group.num_rows, pages, offset);
        chunks_.push_back(std::move(pages));
      }
    }
  }

  void check_pages(const Column& c, const ColumnMetaData& m, std::int64_t rows,
                   const std::vector<PageLocation>& pages, Bytes index_offset) {
    std::int64_t next = m.data_page_offset;
    for (std::size_t p = 0; p < pages.size(); ++p) {
      const PageLocation& loc = pages[p];
      const bool rows_ok =
          p == 0 ? loc.first_row_index == 0
                 : loc.first_row_index > pages[p - 1].first_row_index && loc.first_row_index < rows;
      if (!rows_ok || loc.offset != next || loc.compressed_page_size <= 0) {
        corrupt(index_offset, "column " + Quote(c.name) + ": page " + std::to_string(p) +
                                  " of the offset index (offset " + std::to_string(loc.offset) +
                                  ", " + std::to_string(loc.compressed_page_size) +
                                  " bytes, first row " + std::to_string(loc.first_row_index) +
                                  ") does not follow the pages before it");
      }
      next += loc.compressed_page_size;
    }
    if (pages.empty() || next != m.data_page_offset + m.total_compressed_size) {
      corrupt(index_offset, "column " + Quote(c.name) + ": the offset index's pages do not cover " +
                                "the column chunk");
    }
  }

  std::span<const std::byte> fetch(const PageLocation& loc, const Column& c) {
    const auto offset = static_cast<Bytes>(loc.offset);
    const auto length = static_cast<Bytes>(loc.compressed_page_size);
    std::span<const std::byte> page;
    if (direct_) {
      page = direct_->view(offset, length);
    } else {
      if (page_scratch.size() < length) page_scratch.resize(length);
      page = std::span<const std::byte>(page_scratch.data(),
                                        file_->read_at(offset, page_scratch.data(), length));
    }
    if (page.size() != length) {
      corrupt(offset, "column " + Quote(c.name) + ": page of " + std::to_string(length) +
                          " bytes, got " + std::to_string(page.size()) + " (truncated file?)");
    }
    return page;
  }

  // Decodes and checks the page at `offset` (`rows` rows) and copies row `row` of it to `dst`.
  void copy_row(const Column& c, std::span<const std::byte> page, Bytes offset, std::int64_t rows,
                std::int64_t row, std::byte* dst) {
    const std::string where = "column " + Quote(c.name) + ": ";
    PageHeader h;
    std::size_t header_length = 0;
    try {
      h = DecodePageHeader(page, &header_length);
    } catch (const thrift::DecodeError& e) {
      corrupt(offset, where + "corrupted page header: " + e.what());
    }
    if (h.type != kDataPage || !h.data_page_header) {
      corrupt(offset, where + "page type " + std::to_string(h.type) + ", expected a data page v1");
    }
    const DataPageHeader& d = *h.data_page_header;
    if (h.compressed_page_size < 0 || h.uncompressed_page_size < 0 ||
        header_length + static_cast<Bytes>(h.compressed_page_size) != page.size()) {
      corrupt(offset, where + "page header says " + std::to_string(header_length) + " + " +
                          std::to_string(h.compressed_page_size) + " bytes, the offset index " +
                          std::to_string(page.size()));
    }
    if (d.encoding != kPlain || (c.is_list && (d.definition_level_encoding != kRle ||
                                               d.repetition_level_encoding != kRle))) {
      corrupt(offset, where + "encoding " + std::to_string(d.encoding) +
                          " (dlbench reads PLAIN values with RLE levels)");
    }
    if (d.num_values != rows * c.size) {
      corrupt(offset, where + "page of " + std::to_string(d.num_values) + " values, expected " +
                          std::to_string(rows * c.size) + " (" + std::to_string(rows) + " rows)");
    }
    // Values, plus at most 2 bytes per level of each kind and their length prefixes: a larger
    // size is corrupt (and would make the gunzip buffer grow to it).
    const Bytes values_bytes = static_cast<Bytes>(rows) * c.row_value_bytes();
    const Bytes most = values_bytes + (c.is_list ? 4 * static_cast<Bytes>(d.num_values) + 8 : 0);
    if (static_cast<Bytes>(h.uncompressed_page_size) > most) {
      corrupt(offset, where + "uncompressed page size " + std::to_string(h.uncompressed_page_size) +
                          " exceeds the " + std::to_string(most) + " bytes " +
                          std::to_string(rows) + " rows can take");
    }
    std::span<const std::byte> body = page.subspan(header_length);
    if (layout_.codec == kGzip) {
      body = gunzip(body, static_cast<Bytes>(h.uncompressed_page_size), offset, where);
    } else if (h.uncompressed_page_size != h.compressed_page_size) {
      corrupt(offset, where + "uncompressed page with different compressed and uncompressed sizes");
    }
    std::size_t levels = 0;
    if (c.is_list) {
      try {
        levels = CheckListLevels(body, rows, c.size);
      } catch (const thrift::DecodeError& e) {
        corrupt(offset, where + e.what());
      }
    }
    const std::span<const std::byte> values = body.subspan(levels);
    if (values.size() != values_bytes) {
      corrupt(offset, where + std::to_string(values.size()) + " bytes of values, expected " +
                          std::to_string(values_bytes));
    }
    const std::byte* src = values.data() + static_cast<Bytes>(row) * c.row_value_bytes();
    if (c.value_bytes == c.itemsize) {
      std::memcpy(dst, src, c.row_bytes());
    } else {  // 8/16-bit integers from INT32: the low bytes (little-endian)
      for (std::int64_t i = 0; i < c.size; ++i) {
        std::memcpy(dst + i * c.itemsize, src + i * c.value_bytes, c.itemsize);
      }
    }
  }

  std::span<const std::byte> gunzip(std::span<const std::byte> in, Bytes size, Bytes offset,
                                    const std::string& where) {
    if (inflate_scratch.size() < size) inflate_scratch.resize(size);
    z_stream z{};
    if (inflateInit2(&z, 15 + 32) != Z_OK) throw Error(ExitCode::kInternal, "inflateInit2");
    z.next_in = reinterpret_cast<Bytef*>(const_cast<std::byte*>(in.data()));
    z.avail_in = static_cast<uInt>(in.size());
    z.next_out = reinterpret_cast<Bytef*>(inflate_scratch.data());
    z.avail_out = static_cast<uInt>(size);
    const int rc = inflate(&z, Z_FINISH);
    const Bytes produced = z.total_out;
    const bool all_input = z.avail_in == 0;
    inflateEnd(&z);
    if (rc != Z_STREAM_END || produced != size || !all_input) {
      corrupt(offset, where + "corrupt gzip page (zlib status " + std::to_string(rc) + ", " +
                          std::to_string(produced) + " of " + std::to_string(size) + " bytes)");
    }
    return {inflate_scratch.data(), static_cast<std::size_t>(size)};
  }

  std::unique_ptr<storage::ReadableFile> file_;
  DirectFile* direct_;  // file_ when reading with O_DIRECT, else null
  Layout layout_;
  std::vector<std::size_t> read_columns_;
  Bytes sample_bytes_ = 0;
  Bytes open_bytes_ = 0;
  std::vector<std::int64_t> group_first_;  // first row of each group, then the row count
  // Page locations of each column chunk, [group · columns + column]; checked: contiguous,
  // covering the chunk, first rows increasing from 0.
  std::vector<std::vector<PageLocation>> chunks_;
};

}  // namespace

std::unique_ptr<FileReader> ParquetReader::open(storage::Env& env, const FileSpec& spec,
                                                const FileReadOptions& options) const {
  return std::make_unique<ParquetFileReader>(OpenForReading(env, spec.path, options.direct), spec);
}

}  // namespace dlbench::formats
