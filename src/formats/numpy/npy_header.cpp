#include "formats/numpy/npy_header.h"

#include <cctype>
#include <charconv>

#include "util/error.h"

namespace dlbench::formats::npy {
namespace {

constexpr std::string_view kMagic = "\x93NUMPY";
// numpy leaves room for the first axis to grow to this many digits (format.py, GROWTH_AXIS_...).
constexpr std::size_t kGrowthAxisMaxDigits = 21;

[[noreturn]] void Bad(const std::string& where, const std::string& what) {
  throw CorruptDataError(where, "npy header", what);
}

// A cursor over the Python dict literal.
class DictParser {
 public:
  DictParser(std::string_view text, const std::string& where) : text_(text), where_(where) {}

  Header run() {
    Header h;
    bool have_descr = false, have_order = false, have_shape = false;
    expect('{');
    while (true) {
      skip_space();
      if (peek() == '}') break;
      const std::string key = string();
      expect(':');
      if (key == "descr") {
        h.descr = string();
        have_descr = true;
      } else if (key == "fortran_order") {
        h.fortran_order = boolean();
        have_order = true;
      } else if (key == "shape") {
        h.shape = tuple();
        have_shape = true;
      } else {
        Bad(where_, "unexpected key '" + FileText(key) + "'");
      }
      skip_space();
      if (peek() == ',') ++pos_;
    }
    if (!have_descr || !have_order || !have_shape) {
      Bad(where_, "the dict lacks one of 'descr', 'fortran_order', 'shape'");
    }
    return h;
  }

 private:
  char peek() {
    if (pos_ >= text_.size()) Bad(where_, "dict ends early");
    return text_[pos_];
  }
  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  void expect(char c) {
    skip_space();
    if (peek() != c)
      Bad(where_, std::string("expected '") + c + "' at header byte " + std::to_string(pos_));
    ++pos_;
  }
  std::string string() {
    skip_space();
    const char quote = peek();
    if (quote != '\'' && quote != '"')
      Bad(where_, "expected a quoted string at byte " + std::to_string(pos_));
    const std::size_t end = text_.find(quote, pos_ + 1);
    if (end == std::string_view::npos) Bad(where_, "unterminated string");
    std::string s(text_.substr(pos_ + 1, end - pos_ - 1));
    pos_ = end + 1;
    return s;
  }
  bool boolean() {
    skip_space();
    if (text_.substr(pos_, 4) == "True") {
      pos_ += 4;
      return true;
    }
    if (text_.substr(pos_, 5) == "False") {
      pos_ += 5;
      return false;
    }
    Bad(where_, "fortran_order is neither True nor False");
  }
  std::vector<std::int64_t> tuple() {
    std::vector<std::int64_t> dims;
    expect('(');
    while (true) {
      skip_space();
      if (peek() == ')') break;
      std::int64_t v = 0;
      const auto [end, ec] = std::from_chars(text_.data() + pos_, text_.data() + text_.size(), v);
      if (ec != std::errc() || v < 0)
        Bad(where_, "unreadable shape at byte " + std::to_string(pos_));
      if (dims.size() == kMaxDims) {
        Bad(where_, "its shape has more than " + std::to_string(kMaxDims) +
                        " dimensions, numpy's limit (a corrupt header)");
      }
      pos_ = static_cast<std::size_t>(end - text_.data());
      if (pos_ < text_.size() && text_[pos_] == 'L') ++pos_;  // Python 2 long
      dims.push_back(v);
      skip_space();
      if (peek() == ',') ++pos_;
    }
    ++pos_;
    return dims;
  }

  std::string_view text_;
  const std::string& where_;
  std::size_t pos_ = 0;
};

}  // namespace

std::string ShapeText(const std::vector<std::int64_t>& shape) {
  std::string s = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i > 0) s += ", ";
    s += std::to_string(shape[i]);
  }
  if (shape.size() == 1) s += ",";
  return s + ")";
}

std::string Encode(std::string_view descr, const std::vector<std::int64_t>& shape) {
  std::string dict = "{'descr': '" + std::string(descr) +
                     "', 'fortran_order': False, 'shape': " + ShapeText(shape) + ", }";
  if (!shape.empty()) {
    const std::size_t digits = std::to_string(shape[0]).size();
    dict.append(kGrowthAxisMaxDigits - digits, ' ');
  }
  // Version 1.0 when HLEN fits in 16 bits, else 2.0 with a 32-bit HLEN.
  int version = 1;
  std::size_t preamble = 10;
  // Like numpy, a header already aligned still gets a full 64 bytes of padding.
  std::size_t pad = kAlignment - (preamble + dict.size() + 1) % kAlignment;
  if (dict.size() + pad + 1 > 65535) {
    version = 2;
    preamble = 12;
    pad = kAlignment - (preamble + dict.size() + 1) % kAlignment;
  }
  const std::size_t hlen = dict.size() + pad + 1;
  std::string out(kMagic);
  out += static_cast<char>(version);
  out += '\0';
  const int len_bytes = version == 1 ? 2 : 4;
  for (int i = 0; i < len_bytes; ++i) out += static_cast<char>((hlen >> (8 * i)) & 0xFF);
  out += dict;
  out.append(pad, ' ');
  out += '\n';
  return out;
}

Bytes HeaderLength(std::string_view probe, const std::string& where) {
  if (probe.size() < kPreambleBytes || probe.substr(0, kMagic.size()) != kMagic) {
    Bad(where, "missing the \\x93NUMPY magic");
  }
  const auto byte = [&](std::size_t i) {
    return static_cast<Bytes>(static_cast<unsigned char>(probe[i]));
  };
  const int major = static_cast<int>(byte(6));
  if (major == 1) return 10 + (byte(8) | byte(9) << 8);
  if (major == 2 || major == 3) {
    if (probe.size() < 12) Bad(where, "truncated preamble");
    const Bytes length = 12 + (byte(8) | byte(9) << 8 | byte(10) << 16 | byte(11) << 24);
    if (length > kMaxHeaderBytes) {
      Bad(where, "its length field says " + std::to_string(length) + " bytes, more than the " +
                     std::to_string(kMaxHeaderBytes) + " dlbench reads (a corrupt header)");
    }
    return length;
  }
  Bad(where, "unsupported format version " + std::to_string(major) + "." +
                 std::to_string(static_cast<int>(byte(7))));
}

Header Parse(std::string_view bytes, const std::string& where) {
  const Bytes total = HeaderLength(bytes, where);
  if (bytes.size() < total) Bad(where, "truncated: " + std::to_string(total) + " bytes expected");
  const Bytes preamble = static_cast<unsigned char>(bytes[6]) == 1 ? 10 : 12;
  Header h = DictParser(bytes.substr(preamble, total - preamble), where).run();
  h.data_offset = total;
  return h;
}

}  // namespace dlbench::formats::npy
