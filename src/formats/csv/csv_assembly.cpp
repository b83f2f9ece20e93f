#include "formats/csv/csv_assembly.h"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <string>

#include "formats/io/buffered_appender.h"
#include "formats/io/gathered_appender.h"
#include "formats/io/little_endian.h"
#include "formats/io/segment_chooser.h"
#include "formats/io/zlib_crc.h"
#include "storage/file.h"
#include "util/error.h"

namespace dlbench::formats {
namespace {

// Pseudo-files of the content generator whose bytes are the pools' values: above any dataset's
// file indexes, below the jpeg pools' (~0 - pieces) and the png pools' (~0 - 2^32 - ...).
std::uint64_t CsvPoolFile(int level) {
  return ~std::uint64_t{0} - (std::uint64_t{1} << 34) - static_cast<std::uint64_t>(level);
}

bool SameType(csv::ElementType a, csv::ElementType b) {
  return a.kind == b.kind && a.size == b.size;
}

}  // namespace

int CsvMainLevel(csv::ElementType type) {
  int level = 14;
  for (int size = type.size; size > 1; size /= 2) --level;
  return level;
}

CsvPools::CsvPools(const dataset::ContentGenerator& content, csv::ElementType type,
                   std::optional<int> deflate_level)
    : type_(type), deflate_level_(deflate_level) {
  const int main_level = CsvMainLevel(type);
  for (int level = 0; level <= main_level; ++level) {
    pools_.push_back(std::make_unique<const CsvPiecePool>(
        content, CsvPoolFile(level), type, std::int64_t{1} << level,
        level == main_level ? kCsvMainPieces : kCsvTailPieces, deflate_level));
  }
}

std::shared_ptr<const CsvPools> CsvPoolCache::get(const dataset::ContentGenerator& content,
                                                  csv::ElementType type,
                                                  std::optional<int> deflate_level) {
  const std::lock_guard lock(mutex_);
  if (!content_ || !(*content_ == content) || !SameType(pools_->type(), type) ||
      pools_->deflate_level() != deflate_level) {
    content_ = content;
    pools_ = std::make_shared<const CsvPools>(content, type, deflate_level);
  }
  return pools_;
}

WriteResult WriteAssembledCsv(storage::Env& env, const FileSpec& spec,
                              const dataset::ContentGenerator& content, CsvPoolCache& pools,
                              std::span<std::byte> buffer) {
  std::optional<int> level;
  switch (spec.compression) {
    case config::Compression::kNone:
      break;
    case config::Compression::kGzip:
      level = spec.compression_level;
      break;
    default:  // config::Validate lets only none and gzip through
      throw InternalError(std::string("assembled csv files are uncompressed or gzip, not ") +
                          config::ToString(spec.compression));
  }
  const csv::ElementType type = csv::ElementTypeOf(spec.dtype);
  const std::shared_ptr<const CsvPools> set = pools.get(content, type, level);
  const CsvPiecePool& main = set->main();
  const std::int64_t values = spec.sample_bytes() / type.size;
  SegmentChooser chooser(content, spec.file_index, main.size());

  auto file = env.create(spec.path);
  {
    GatheredAppender out(*file, buffer);
    if (level) {
      // The header zlib writes for a gzip stream without a gzip header of the caller's: no
      // name, time 0, XFL 2 for level 9 and 4 for levels 0-1, OS 3 (Unix).
      const auto xfl = static_cast<std::byte>(*level == 9 ? 2 : (*level < 2 ? 4 : 0));
      const std::array<std::byte, 10> header = {
          std::byte{0x1F}, std::byte{0x8B}, std::byte{8}, std::byte{0}, std::byte{0},
          std::byte{0},    std::byte{0},    std::byte{0}, xfl,          std::byte{3}};
      out.copy(header.data(), header.size());
    }
    std::uint32_t crc = 0;
    std::uint64_t text = 0;
    const auto checksum = [&](const CsvPiece& piece) {
      crc = static_cast<std::uint32_t>(crc32_combine_op(crc, piece.crc, piece.crc_op));
      text += piece.text;
    };
    // A piece, then its separator: "\n" after the line's last piece, "," after the others.
    // Pool pieces go to the file without a copy (gathered writes).
    const auto append = [&](const CsvPiecePool& pool, std::size_t i, bool line_end) {
      const CsvPiece& piece = pool.piece(i);
      const std::span<const std::byte> bytes =
          line_end ? pool.bytes(piece) : pool.bytes_and_comma(piece);
      out.keep(bytes);
      checksum(piece);
      const CsvPiece& separator = line_end ? pool.newline() : pool.comma();
      if (line_end) {
        const std::span<const std::byte> newline = pool.bytes(separator);
        out.keep(newline);
      }
      checksum(separator);
    };
    // The file's own first values, formatted here as the per-file writer does (with gzip in a
    // stored block), so that files differ even when their lines are short.
    const auto append_head = [&](std::int64_t count, bool line_end) {
      std::array<std::byte, kCsvHeadValues * 8> raw_values{};
      std::array<char, kCsvHeadValues * csv::kMaxFieldChars> chars{};
      const std::span<std::byte> raw =
          std::span(raw_values).first(static_cast<std::size_t>(count * type.size));
      content.fill(spec.file_index, 0, raw);
      csv::ToStoredValues(type, raw);
      const std::size_t length = csv::FormatElements(type, raw, chars.data());
      if (line_end) chars[length - 1] = '\n';
      const std::span<const std::byte> head = std::as_bytes(std::span(chars).first(length));
      if (level) {
        // BFINAL 0, BTYPE 00 (stored), the rest of the byte padding (blocks start
        // byte-aligned here), LEN and its complement NLEN, little-endian.
        const auto len = static_cast<std::uint16_t>(length);
        const auto nlen = static_cast<std::uint16_t>(~len);
        const std::array<std::byte, 5> stored = {
            std::byte{0}, static_cast<std::byte>(len & 0xFF), static_cast<std::byte>(len >> 8),
            static_cast<std::byte>(nlen & 0xFF), static_cast<std::byte>(nlen >> 8)};
        out.copy(stored.data(), stored.size());
      }
      out.copy(head.data(), head.size());
      crc = Crc32(crc, head);
      text += length;
    };
    for (std::int64_t line = 0; line < spec.samples && values > 0; ++line) {
      std::int64_t left = values;
      if (line == 0) {
        const std::int64_t head = std::min(values, kCsvHeadValues);
        append_head(head, head == values);
        left -= head;
      }
      const std::int64_t whole = left / main.elements();
      const std::int64_t rest = left % main.elements();
      for (std::int64_t k = 0; k < whole; ++k) {
        append(main, chooser.next_main(), rest == 0 && k + 1 == whole);
      }
      for (int k = set->main_level() - 1; k >= 0; --k) {
        if ((rest >> k & 1) == 0) continue;
        const CsvPiecePool& pool = set->pool(k);
        // The lowest bit of the remainder is the line's last piece.
        append(pool, chooser.below(pool.size()), (rest & ((std::int64_t{1} << k) - 1)) == 0);
      }
    }
    if (level) {
      // A final empty fixed-Huffman block (BFINAL 1, BTYPE 01, end-of-block), then crc32 and
      // the text's length mod 2^32, little-endian.
      std::array<std::byte, 10> end = {std::byte{0x03}, std::byte{0x00}};
      StoreLe(end.data() + 2, crc, 4);
      StoreLe(end.data() + 6, text, 4);
      out.copy(end.data(), end.size());
    }
    out.flush();
  }
  return FinishDataFile(*file, spec);
}

}  // namespace dlbench::formats
