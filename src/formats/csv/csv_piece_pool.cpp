#include "formats/csv/csv_piece_pool.h"

#include <zlib.h>

#include <string>

#include "dataset/content.h"
#include "formats/io/zlib_crc.h"
#include "util/error.h"

namespace dlbench::formats {
namespace {

[[noreturn]] void CsvZlibFailure(const char* what, int code) {
  throw Error(ExitCode::kInternal, std::string("csv piece pool: zlib ") + what + " failed (" +
                                       std::to_string(code) + ")");
}

// The raw deflate stream the pieces are deflated into, one Z_FULL_FLUSH per piece.
class PieceDeflater {
 public:
  explicit PieceDeflater(int level) {
    // windowBits -15: raw deflate (the file's gzip header and trailer are the assembler's).
    const int rc = deflateInit2(&z_, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY);
    if (rc != Z_OK) CsvZlibFailure("deflateInit2", rc);
  }
  ~PieceDeflater() { deflateEnd(&z_); }
  PieceDeflater(const PieceDeflater&) = delete;
  PieceDeflater& operator=(const PieceDeflater&) = delete;

  // Appends the deflated `text` to `out`, byte-aligned and independent of what came before.
  void deflate_piece(std::span<const char> text, std::vector<std::byte>& out) {
    const std::size_t begin = out.size();
    // deflateBound covers a whole stream's worst case; a full flush adds at most an empty
    // stored block (5 bytes) and the bits that complete a byte.
    out.resize(begin + deflateBound(&z_, static_cast<uLong>(text.size())) + 16);
    z_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
    z_.avail_in = static_cast<uInt>(text.size());
    z_.next_out = reinterpret_cast<Bytef*>(out.data() + begin);
    z_.avail_out = static_cast<uInt>(out.size() - begin);
    const int rc = deflate(&z_, Z_FULL_FLUSH);
    if (rc != Z_OK || z_.avail_in != 0 || z_.avail_out == 0) CsvZlibFailure("deflate", rc);
    out.resize(out.size() - z_.avail_out);
  }

 private:
  z_stream z_{};
};

}  // namespace

CsvPiecePool::CsvPiecePool(const dataset::ContentGenerator& content, std::uint64_t pool_file,
                           csv::ElementType type, std::int64_t elements, int count,
                           std::optional<int> deflate_level)
    : elements_(elements) {
  if (elements < 1 || count < 1) {
    throw InternalError("csv piece pool: at least one value and one piece");
  }
  const auto n = static_cast<std::size_t>(elements);
  std::vector<std::byte> values(n * static_cast<std::size_t>(type.size));
  std::vector<char> text(n * csv::kMaxFieldChars);
  std::optional<PieceDeflater> deflater;
  if (deflate_level) deflater.emplace(*deflate_level);
  // Stores `piece_text` (deflated with gzip) at the end of bytes_; returns its description.
  const auto store = [&](std::span<const char> piece_text) {
    CsvPiece p;
    p.begin = bytes_.size();
    p.text = piece_text.size();
    p.crc = Crc32(0, std::as_bytes(piece_text));
    p.crc_op = crc32_combine_gen(static_cast<z_off_t>(piece_text.size()));
    if (deflater) {
      deflater->deflate_piece(piece_text, bytes_);
    } else {
      const auto* chars = reinterpret_cast<const std::byte*>(piece_text.data());
      bytes_.insert(bytes_.end(), chars, chars + piece_text.size());
    }
    p.size = bytes_.size() - p.begin;
    return p;
  };
  const std::span<const char> comma(",", 1);
  pieces_.reserve(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) {
    content.fill(pool_file, static_cast<Bytes>(i) * values.size(), values);
    csv::ToStoredValues(type, values);
    // Without the ',' FormatElements writes after the last value.
    CsvPiece p = store(
        std::span<const char>(text.data(), csv::FormatElements(type, values, text.data()) - 1));
    comma_ = store(comma);
    p.comma = comma_.size;
    pieces_.push_back(p);
  }
  newline_ = store(std::span<const char>("\n", 1));
  bytes_.shrink_to_fit();
}

}  // namespace dlbench::formats
