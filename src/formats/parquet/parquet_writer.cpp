#include "formats/parquet/parquet_writer.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <optional>
#include <span>

#include "dataset/content.h"
#include "formats/io/little_endian.h"
#include "formats/parquet/parquet_codec.h"
#include "formats/parquet/parquet_layout.h"
#include "storage/file.h"
#include "util/error.h"

namespace dlbench::formats {
namespace {

using namespace parquet;  // NOLINT(google-build-using-namespace): the file is about Parquet

// Widens `n` integers of `from` bytes stored at the end of `region` (n · 4 bytes) to 4-byte
// little-endian INT32s from its start, in place: value i is read before its slot overwrites
// anything not yet read.
void WidenInPlace(std::byte* region, std::int64_t n, int from, bool is_signed) {
  const std::byte* src = region + n * 4 - n * from;
  for (std::int64_t i = 0; i < n; ++i) {
    std::uint32_t v = static_cast<std::uint32_t>(GetLe(src + i * from, from));
    if (is_signed && (v >> (8 * from - 1)) != 0) v |= ~0u << (8 * from);
    for (int b = 0; b < 4; ++b) region[i * 4 + b] = static_cast<std::byte>(v >> (8 * b));
  }
}

bool IsSigned(const Column& c) { return c.dtype[0] == 'i'; }

// Where one small page's values lie in a file's image: rows [row, row + rows) of `column`.
struct ValueRegion {
  Bytes offset = 0;
  std::size_t column = 0;
  std::int64_t row = 0;
  std::int64_t rows = 0;
};

// Rows [row, row + rows) of column `c`, PLAIN values laid out from `values` (row_value_bytes()
// each): each row's bytes are its sample's payload bytes of this column.
void FillValues(const FileSpec& spec, const Layout& layout, const Column& c,
                const dataset::ContentGenerator& content, std::int64_t row, std::int64_t rows,
                std::byte* values) {
  const Bytes row_values = c.row_value_bytes();
  for (std::int64_t r = 0; r < rows; ++r) {
    std::byte* dst = values + static_cast<Bytes>(r) * row_values;
    const Bytes payload = static_cast<Bytes>(row + r) * layout.sample_bytes + c.sample_offset;
    content.fill(spec.file_index, payload,
                 {dst + row_values - c.row_bytes(), static_cast<std::size_t>(c.row_bytes())});
    if (c.value_bytes != c.itemsize) WidenInPlace(dst, c.size, c.itemsize, IsSigned(c));
  }
}

// Produces the file: with `file` null it only counts the bytes (file_size of uncompressed files).
// When the whole file went out in one gathered write (at most kCoalesce bytes), its bytes and
// where its values lie stay readable until the Builder goes: the next file of the same layout is
// that image with other values (ParquetMemo).
class Builder {
 public:
  static constexpr Bytes kCoalesce = 64 * KiB;

  Builder(const FileSpec& spec, const Layout& layout, storage::WritableFile* file,
          const dataset::ContentGenerator* content)
      : spec_(spec), layout_(layout), file_(file), content_(content) {}

  // Whether build() gathered the whole file into one write (then image() and regions() hold it).
  bool gathered_whole() const { return whole_; }
  std::span<const std::byte> image() const {
    return {pending_.get(), static_cast<std::size_t>(pos_)};
  }
  const std::vector<ValueRegion>& regions() const { return regions_; }

  Bytes build() {
    emit(kMagic, 4);
    FileMetaData meta;
    meta.schema = layout_.schema();
    meta.num_rows = layout_.rows;
    meta.created_by = "dlbench";
    std::vector<OffsetIndex> indexes;
    for (std::int64_t g = 0; g < layout_.row_groups(); ++g) {
      RowGroup group;
      group.num_rows = layout_.rows_in_group(g);
      for (const Column& c : layout_.columns) {
        indexes.emplace_back();
        group.columns.push_back(write_chunk(c, g, &indexes.back()));
        group.total_byte_size += group.columns.back().meta_data->total_uncompressed_size;
      }
      meta.row_groups.push_back(std::move(group));
    }
    std::size_t i = 0;
    for (RowGroup& group : meta.row_groups) {
      for (ColumnChunk& chunk : group.columns) {
        const std::string index = Encode(indexes[i++]);
        chunk.offset_index_offset = static_cast<std::int64_t>(pos_);
        chunk.offset_index_length = static_cast<std::int32_t>(index.size());
        emit(index.data(), index.size());
      }
    }
    std::string footer = Encode(meta);
    PutLe(footer, footer.size(), 4);
    footer.append(kMagic, 4);
    emit(footer.data(), footer.size());
    whole_ = file_ != nullptr && !flushed_ && pending_bytes_ == pos_;
    flush();
    return pos_;
  }

 private:
  ColumnChunk write_chunk(const Column& c, std::int64_t g, OffsetIndex* index) {
    const std::int64_t first_row = g * layout_.row_group_rows;
    const std::int64_t rows = layout_.rows_in_group(g);
    ColumnChunk chunk;
    chunk.file_offset = static_cast<std::int64_t>(pos_);
    ColumnMetaData meta;
    meta.type = c.physical;
    meta.encodings =
        c.is_list ? std::vector<std::int32_t>{kPlain, kRle} : std::vector<std::int32_t>{kPlain};
    meta.path_in_schema = c.path();
    meta.codec = layout_.codec;
    meta.num_values = rows * c.size;
    meta.data_page_offset = static_cast<std::int64_t>(pos_);
    for (std::int64_t r = 0; r < rows; r += c.rows_per_page) {
      const std::int64_t page_rows = std::min(c.rows_per_page, rows - r);
      const Bytes start = pos_;
      meta.total_uncompressed_size +=
          static_cast<std::int64_t>(write_page(c, first_row + r, page_rows));
      index->page_locations.push_back(
          {static_cast<std::int64_t>(start), static_cast<std::int32_t>(pos_ - start), r});
    }
    meta.total_compressed_size = static_cast<std::int64_t>(pos_) - meta.data_page_offset;
    chunk.meta_data = std::move(meta);
    return chunk;
  }

  // Writes one data page v1 of rows [row, row + rows); returns its uncompressed size with the
  // header (what total_uncompressed_size sums).
  Bytes write_page(const Column& c, std::int64_t row, std::int64_t rows) {
    const std::string levels = c.is_list ? EncodeListLevels(rows, c.size) : std::string();
    const Bytes body = levels.size() + static_cast<Bytes>(rows) * c.row_value_bytes();
    PageHeader header;
    header.uncompressed_page_size = static_cast<std::int32_t>(body);
    header.compressed_page_size = header.uncompressed_page_size;
    header.data_page_header =
        DataPageHeader{static_cast<std::int32_t>(rows * c.size), kPlain, kRle, kRle};
    if (layout_.codec == kUncompressed) {
      const std::string encoded = Encode(header);
      const Bytes size = encoded.size() + body;
      if (file_ == nullptr) {
        pos_ += size;
      } else if (size <= kCoalesce) {  // built in place among the small pieces
        std::byte* at = reserve(size);
        std::memcpy(at, encoded.data(), encoded.size());
        regions_.push_back({pos_ - size + encoded.size() + levels.size(),
                            static_cast<std::size_t>(&c - layout_.columns.data()), row, rows});
        fill_body(c, row, rows, levels, at + encoded.size());
      } else {
        page_.resize(size);
        std::memcpy(page_.data(), encoded.data(), encoded.size());
        fill_body(c, row, rows, levels, page_.data() + encoded.size());
        emit(page_.data(), page_.size());
      }
      return size;
    }
    if (file_ == nullptr) throw InternalError("parquet: sizing a compressed file");
    page_.resize(body);
    fill_body(c, row, rows, levels, page_.data());
    const Bytes compressed = Compress(layout_.codec, layout_.compression_level, page_, compressed_);
    header.compressed_page_size = static_cast<std::int32_t>(compressed);
    const std::string encoded = Encode(header);
    emit(encoded.data(), encoded.size());
    emit(compressed_.data(), compressed);
    return encoded.size() + body;
  }

  // Levels, then the PLAIN values of rows [row, row + rows): each row's bytes are its sample's
  // payload bytes of this column.
  void fill_body(const Column& c, std::int64_t row, std::int64_t rows, const std::string& levels,
                 std::byte* out) {
    std::memcpy(out, levels.data(), levels.size());
    FillValues(spec_, layout_, c, *content_, row, rows, out + levels.size());
  }

  // Appends `n` bytes; pieces smaller than kCoalesce (magic, small pages, indexes, footer) are
  // gathered into one write, so that a small file costs one write call as with other formats.
  void emit(const void* data, Bytes n) {
    if (file_ == nullptr) {
      pos_ += n;
    } else if (n > kCoalesce) {
      flush();
      pos_ += n;
      file_->append(data, n);
      flushed_ = true;
    } else {
      std::memcpy(reserve(n), data, n);
    }
  }

  // The next `n` <= kCoalesce bytes of the file, to fill in place among the gathered pieces.
  std::byte* reserve(Bytes n) {
    if (!pending_) pending_ = std::make_unique_for_overwrite<std::byte[]>(kCoalesce);
    if (pending_bytes_ + n > kCoalesce) flush();
    std::byte* at = pending_.get() + pending_bytes_;
    pending_bytes_ += n;
    pos_ += n;
    return at;
  }

  void flush() {
    if (file_ == nullptr || pending_bytes_ == 0) return;
    file_->append(pending_.get(), pending_bytes_);
    pending_bytes_ = 0;
    flushed_ = true;
  }

  const FileSpec& spec_;
  const Layout& layout_;
  storage::WritableFile* file_;
  const dataset::ContentGenerator* content_;
  Bytes pos_ = 0;
  std::vector<std::byte> page_;           // one large page, header included when uncompressed
  std::vector<std::byte> compressed_;     // a page's compressed form
  std::unique_ptr<std::byte[]> pending_;  // kCoalesce bytes: small pieces not written yet
  Bytes pending_bytes_ = 0;
  bool flushed_ = false;  // a write went out before the end (no image then)
  bool whole_ = false;
  std::vector<ValueRegion> regions_;  // small pages' values, in file order
};

// Generation asks for every file's size before writing it (generation/generation.cpp), which
// for Parquet means laying out and encoding the whole footer again: a third of the writer's CPU
// per 4 KiB file. A dataset's files mostly share one layout, so each thread keeps its last answer
// with what the size depends on (not the path or the file index, which only pick the content).
// For the same reason it keeps the last small uncompressed file it wrote (one gathered write):
// every byte but the values depends only on the layout, so the next file of that layout is the
// same image with its own values filled in place — no layout, page headers, offset index or
// footer to build again (two thirds of the writer's instructions per 4 KiB file).
struct ParquetMemo {
  bool valid = false;
  std::vector<std::int64_t> sample_dims;
  std::string dtype;
  std::int64_t samples = 0;
  config::Compression compression = config::Compression::kNone;
  int compression_level = 0;
  std::vector<config::ParquetColumn> columns;
  std::int64_t row_group_size = 0;
  std::optional<Bytes> size;
  // The last small file written with this layout: its bytes (values of the file it was written
  // for) and where the values lie. Empty when there is none.
  std::optional<Layout> layout;
  std::vector<std::byte> image;
  std::vector<ValueRegion> regions;

  bool holds(const FileSpec& spec) const {
    return valid && spec.samples == samples && spec.sample_dims == sample_dims &&
           spec.dtype == dtype && spec.compression == compression &&
           spec.compression_level == compression_level &&
           spec.parquet_row_group_size == row_group_size && spec.parquet_columns == columns;
  }
  // Makes the memo about `spec`'s layout, forgetting what it held about another.
  void key(const FileSpec& spec) {
    if (holds(spec)) return;
    *this = {};
    valid = true;
    sample_dims = spec.sample_dims;
    dtype = spec.dtype;
    samples = spec.samples;
    compression = spec.compression;
    compression_level = spec.compression_level;
    columns = spec.parquet_columns;
    row_group_size = spec.parquet_row_group_size;
  }
};

ParquetMemo& ThreadMemo() {
  thread_local ParquetMemo memo;
  return memo;
}

}  // namespace

Bytes ParquetWriter::file_size(const FileSpec& spec) const {
  ParquetMemo& memo = ThreadMemo();
  if (memo.holds(spec) && memo.size) return *memo.size;
  const Layout layout = MakeLayout(spec);
  if (layout.codec != kUncompressed) {
    throw UsageError("parquet: the size of a compressed file depends on its content");
  }
  const Bytes size = Builder(spec, layout, nullptr, nullptr).build();
  memo.key(spec);
  memo.size = size;
  return size;
}

WriteResult ParquetWriter::write(storage::Env& env, const FileSpec& spec,
                                 const dataset::ContentGenerator& content,
                                 std::span<std::byte> /*buffer*/) const {
  ParquetMemo& memo = ThreadMemo();
  auto file = env.create(spec.path);
  if (memo.holds(spec) && memo.layout) {
    for (const ValueRegion& region : memo.regions) {
      FillValues(spec, *memo.layout, memo.layout->columns[region.column], content, region.row,
                 region.rows, memo.image.data() + region.offset);
    }
    file->append(memo.image.data(), memo.image.size());
  } else {
    Layout layout = MakeLayout(spec);
    Builder builder(spec, layout, file.get(), &content);
    builder.build();
    if (layout.codec == kUncompressed && builder.gathered_whole()) {
      memo.key(spec);
      memo.image.assign(builder.image().begin(), builder.image().end());
      memo.regions = builder.regions();
      memo.layout = std::move(layout);
    }
  }
  WriteResult result;
  result.data_bytes = file->appended();
  if (spec.fsync) file->sync();
  file->close();
  result.files.push_back(spec.path);
  return result;
}

}  // namespace dlbench::formats
