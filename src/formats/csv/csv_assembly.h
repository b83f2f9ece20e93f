// Assembled csv files (dataset.content.encoding: assembled; docs/formats.md "Assembled csv
// files"): the lines of a csv file put together from pools of pre-formatted values
// (csv_piece_pool.h) at the cost of copying bytes, instead of formatting — and with gzip
// deflating — the file's own values. The first line starts with the file's own first
// kCsvHeadValues values, formatted per file (with gzip in a stored block), so that every file
// differs. A line of S values (the first: its rest) is ⌊S/E⌋ main pieces of E values chosen
// by the file's seeded generator (segment_chooser.h), then one piece of each power of two of
// values the remainder S mod E needs, largest first, with the "," piece between pieces and the
// "\n" piece after the last. With gzip the file is one gzip member: the header zlib writes, the
// stored head and the pieces' deflated bytes, a final empty fixed-Huffman block and the trailer
// (crc32 from crc32_combine of the pieces' CRCs, the text's length).
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <vector>

#include "dataset/content.h"
#include "formats/csv/csv_piece_pool.h"
#include "formats/csv/csv_text.h"
#include "formats/format.h"

namespace dlbench::formats {

// Values per main piece, 2^CsvMainLevel(type): 16,384 one-byte values, 8,192 two-byte ones,
// and so on (~40-60 KB of text, so that deflate's 32 KB window warms up within a piece; gzip
// files are then ~1 % larger than per-file ones at level 4). The main pool holds
// kCsvMainPieces pieces, the pool of each smaller power of two kCsvTailPieces: ~580 KB of text
// for uint8, formatted (and deflated: ~15 ms at level 4) once per writer, element type and
// compression — a one-off cost that bounds the pool's size.
int CsvMainLevel(csv::ElementType type);
inline constexpr int kCsvMainPieces = 8;
inline constexpr int kCsvTailPieces = 2;
// The values of the file's own that its first line starts with.
inline constexpr std::int64_t kCsvHeadValues = 16;

// The pools of one element type and compression: pool(k) has pieces of 2^k values,
// k = 0 .. CsvMainLevel(type), the last being the main pool. Immutable once built.
class CsvPools {
 public:
  // `deflate_level`: none for plain csv, the zlib level for gzip.
  CsvPools(const dataset::ContentGenerator& content, csv::ElementType type,
           std::optional<int> deflate_level);
  csv::ElementType type() const { return type_; }
  std::optional<int> deflate_level() const { return deflate_level_; }
  const CsvPiecePool& pool(int k) const { return *pools_[static_cast<std::size_t>(k)]; }
  const CsvPiecePool& main() const { return *pools_.back(); }
  int main_level() const { return static_cast<int>(pools_.size()) - 1; }

 private:
  csv::ElementType type_;
  std::optional<int> deflate_level_;
  std::vector<std::unique_ptr<const CsvPiecePool>> pools_;
};

// The pools a writer keeps between files: those of the last (content generator, element type,
// compression) asked for. Thread-safe; what get() returns stays valid while held.
class CsvPoolCache {
 public:
  std::shared_ptr<const CsvPools> get(const dataset::ContentGenerator& content,
                                      csv::ElementType type, std::optional<int> deflate_level);

 private:
  std::mutex mutex_;
  std::optional<dataset::ContentGenerator> content_;
  std::shared_ptr<const CsvPools> pools_;
};

// Creates spec.path through `env` and writes the assembled csv file of `spec` (plain, or gzip at
// spec.compression_level) into it through `buffer`, fsyncs it when spec.fsync, and closes it.
// Throws what the file throws; Error(kInternal) for a compression other than none and gzip.
WriteResult WriteAssembledCsv(storage::Env& env, const FileSpec& spec,
                              const dataset::ContentGenerator& content, CsvPoolCache& pools,
                              std::span<std::byte> buffer);

}  // namespace dlbench::formats
