// Pre-formatted csv text that assembled csv files are put together from (csv_assembly.h,
// docs/formats.md "Assembled csv files"): `count` pieces of `elements` values each, the values
// generated and formatted as the per-file writer does (csv_text.h), so that a piece is exactly
// what that writer prints for some values, "v,v,...,v" (no separator after the last). Each piece
// is stored followed by a ",", so that a piece inside a line is one contiguous block
// (bytes_and_comma), and the pool stores one "\n" for the end of a line. Uncompressed, the pool
// keeps the texts; with gzip it deflates them once (raw deflate at the dataset's level, zlib's
// default memLevel and strategy, as the per-file writer) in one stream with Z_FULL_FLUSH after
// every piece and every separator, so that each one's deflated bytes are byte-aligned and refer
// to nothing before them and can follow each other in any order inside a deflate stream. Per
// piece: the stored bytes, the crc32 of the text (with zlib's crc32_combine operator for its
// length) and the text's length — what a gzip trailer needs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "formats/csv/csv_text.h"

namespace dlbench::dataset {
class ContentGenerator;
}

namespace dlbench::formats {

struct CsvPiece {
  std::size_t begin = 0;     // in the pool's bytes
  std::size_t size = 0;      // stored: the text, or its deflated bytes
  std::size_t comma = 0;     // stored bytes of the "," after it (value pieces)
  std::uint32_t crc = 0;     // crc32 of the text
  std::uint64_t crc_op = 0;  // crc32_combine_gen(text)
  std::uint64_t text = 0;    // characters
};

class CsvPiecePool {
 public:
  // The values are the bytes of pseudo-file `pool_file` of `content` (a file index no dataset
  // file has). `deflate_level`: none for plain text, else the zlib level (0..9). Throws
  // Error(kInternal) for a zlib failure or an empty pool.
  CsvPiecePool(const dataset::ContentGenerator& content, std::uint64_t pool_file,
               csv::ElementType type, std::int64_t elements, int count,
               std::optional<int> deflate_level);

  std::int64_t elements() const { return elements_; }
  std::size_t size() const { return pieces_.size(); }
  const CsvPiece& piece(std::size_t i) const { return pieces_[i]; }
  std::span<const std::byte> bytes(const CsvPiece& p) const {
    return std::span(bytes_).subspan(p.begin, p.size);
  }
  // A value piece and the "," stored after it.
  std::span<const std::byte> bytes_and_comma(const CsvPiece& p) const {
    return std::span(bytes_).subspan(p.begin, p.size + p.comma);
  }
  // The separators' checksums and lengths; newline() is stored (bytes()), "," after each piece.
  const CsvPiece& comma() const { return comma_; }
  const CsvPiece& newline() const { return newline_; }

 private:
  std::vector<std::byte> bytes_;  // each piece's stored bytes and its ",", then "\n"
  std::vector<CsvPiece> pieces_;
  CsvPiece comma_;
  CsvPiece newline_;
  std::int64_t elements_ = 0;
};

}  // namespace dlbench::formats
