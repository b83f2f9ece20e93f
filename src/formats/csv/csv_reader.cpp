#include "formats/csv/csv_reader.h"

#include <zlib.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "formats/csv/csv_text.h"
#include "formats/io/whole_file_reader.h"
#include "util/error.h"

namespace dlbench::formats {
namespace {

// The inflated text of a gzip file: a buffer of the reader thread, grown to the largest text.
thread_local std::vector<char> inflated;

bool IsGzip(std::span<const std::byte> bytes) {
  return bytes.size() >= 2 && bytes[0] == std::byte{0x1f} && bytes[1] == std::byte{0x8b};
}

// The most text a file of `rows` lines of `fields` numbers can hold, generously: 64 characters a
// number (dlbench writes at most csv::kMaxFieldChars, pandas a float64 in 24), a line break of two.
std::size_t MostText(std::int64_t rows, std::int64_t fields) {
  return static_cast<std::size_t>(rows) * (static_cast<std::size_t>(fields) * 64 + 2) + 65536;
}

// `most`: the most text the file may inflate to (MostText); more is an error, not an allocation
// (a few MB of gzip can inflate to gigabytes).
std::span<const char> Inflate(std::span<const std::byte> gzip, std::size_t most,
                              const std::string& path) {
  z_stream z{};
  if (inflateInit2(&z, 15 + 16) != Z_OK) throw InternalError("zlib inflateInit2");
  z.next_in = reinterpret_cast<Bytef*>(const_cast<std::byte*>(gzip.data()));
  z.avail_in = static_cast<uInt>(gzip.size());
  const std::size_t first = std::min(4 * gzip.size() + 4096, most + 1);
  if (inflated.size() < first) inflated.resize(first);
  std::size_t produced = 0;
  int status = Z_OK;
  while (status != Z_STREAM_END) {
    if (produced > most) {
      inflateEnd(&z);
      throw CorruptDataError(path, "csv",
                             "the gzip stream inflates to more than " + std::to_string(most) +
                                 " bytes, more than its lines of numbers can take");
    }
    if (produced == inflated.size()) inflated.resize(std::min(2 * inflated.size(), most + 1));
    z.next_out = reinterpret_cast<Bytef*>(inflated.data() + produced);
    z.avail_out = static_cast<uInt>(inflated.size() - produced);
    status = inflate(&z, Z_NO_FLUSH);
    produced = inflated.size() - z.avail_out;
    if (status == Z_BUF_ERROR && z.avail_in == 0) {
      inflateEnd(&z);
      throw CorruptDataError(path, "csv",
                             "the gzip stream ends early (truncated) after " +
                                 std::to_string(produced) + " bytes of text");
    }
    if (status != Z_OK && status != Z_STREAM_END && status != Z_BUF_ERROR) {
      const std::string message = z.msg ? z.msg : "error " + std::to_string(status);
      inflateEnd(&z);
      throw CorruptDataError(path, "csv", "corrupt gzip stream: " + message);
    }
  }
  inflateEnd(&z);
  return {inflated.data(), produced};
}

class CsvDecoder final : public SampleDecoder {
 public:
  explicit CsvDecoder(const FileSpec& spec)
      : type_(csv::ElementTypeOf(spec.dtype)),
        rows_(spec.samples),
        fields_(static_cast<std::int64_t>(spec.sample_bytes()) / type_.size) {}

  void decode(std::span<const std::byte> encoded, std::int64_t k, std::span<std::byte> out,
              const std::string& path) const override {
    const std::span<const char> text =
        IsGzip(encoded)
            ? Inflate(encoded, MostText(rows_, fields_), path)
            : std::span<const char>(reinterpret_cast<const char*>(encoded.data()), encoded.size());
    const char* p = text.data();
    const char* const end = p + text.size();
    std::byte scratch[8];
    for (std::int64_t line = 0; line < rows_; ++line) {
      std::byte* to = line == k ? out.data() : scratch;
      const std::size_t step = line == k ? static_cast<std::size_t>(type_.size) : 0;
      for (std::int64_t field = 0; field < fields_; ++field) {
        const char* next = csv::ParseElement(type_, p, end, to);
        if (next == nullptr) bad(path, line, field, p, end);
        to += step;
        p = next;
        const char expected = field + 1 < fields_ ? ',' : '\n';
        if (p < end && *p == '\r' && expected == '\n') ++p;
        // pandas and dlbench end every line with a newline: a last line without one is a file
        // cut short, maybe inside its last number, which would otherwise read as a smaller one.
        if (p == end && expected == '\n') truncated(path, line);
        if (p == end || *p != expected) bad(path, line, field + 1, p, end);
        ++p;
      }
    }
    if (p != end) {
      throw CorruptDataError(path, "csv",
                             "more than the expected " + std::to_string(rows_) + " lines");
    }
  }

 private:
  [[noreturn]] void bad(const std::string& path, std::int64_t line, std::int64_t field,
                        const char* at, const char* end) const {
    // Up to 12 bytes, escaped (FileText): the message stays on one line.
    const std::string found =
        at == end ? "the end of the file"
                  : "'" + FileText(std::string_view(at, std::min<long>(end - at, 12)), 12) + "'";
    throw CorruptDataError(path, "csv",
                           "line " + std::to_string(line + 1) + ", field " +
                               std::to_string(field + 1) + ": found " + found + "; expected " +
                               std::to_string(rows_) + " lines of " + std::to_string(fields_) +
                               " comma-separated numbers of the element type");
  }

  [[noreturn]] static void truncated(const std::string& path, std::int64_t line) {
    throw CorruptDataError(
        path, "csv",
        "line " + std::to_string(line + 1) +
            " ends without its newline: the file is cut short (truncated), maybe "
            "inside its last number");
  }

  csv::ElementType type_;
  std::int64_t rows_;
  std::int64_t fields_;
};

}  // namespace

std::unique_ptr<FileReader> CsvReader::open(storage::Env& env, const FileSpec& spec,
                                            const FileReadOptions& options) const {
  return OpenWholeFileReader(env, spec, options, std::make_unique<CsvDecoder>(spec));
}

}  // namespace dlbench::formats
