#include "config/scalar_parser.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>

namespace dlbench::config {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// Removes `_` that sit between two digits; any other `_` makes the text invalid.
std::optional<std::string> WithoutUnderscores(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '_') {
      if (i == 0 || i + 1 == text.size() || !IsDigit(text[i - 1]) || !IsDigit(text[i + 1])) {
        return std::nullopt;
      }
      continue;
    }
    out += text[i];
  }
  return out;
}

}  // namespace

std::string Lowercase(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::optional<std::int64_t> ParseInteger(std::string_view text) {
  auto clean = WithoutUnderscores(text);
  if (!clean || clean->empty()) return std::nullopt;
  std::string_view digits = *clean;
  bool negative = false;
  if (digits[0] == '+' || digits[0] == '-') {
    negative = digits[0] == '-';
    digits.remove_prefix(1);
  }
  if (digits.empty()) return std::nullopt;
  for (char c : digits) {
    if (!IsDigit(c)) return std::nullopt;
  }
  std::uint64_t magnitude = 0;
  auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), magnitude);
  if (error != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
  constexpr auto kMax = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  if (magnitude > kMax + (negative ? 1 : 0)) return std::nullopt;
  if (negative)
    return magnitude == kMax + 1 ? std::numeric_limits<std::int64_t>::min()
                                 : -static_cast<std::int64_t>(magnitude);
  return static_cast<std::int64_t>(magnitude);
}

std::optional<double> ParseFloat(std::string_view text) {
  auto clean = WithoutUnderscores(text);
  if (!clean || clean->empty()) return std::nullopt;
  std::string body = *clean;
  double sign = 1.0;
  if (body[0] == '+' || body[0] == '-') {
    sign = body[0] == '-' ? -1.0 : 1.0;
    body.erase(0, 1);
  }
  const std::string lower = Lowercase(body);
  if (lower == "inf" || lower == ".inf") return sign * std::numeric_limits<double>::infinity();
  if (lower == "nan" || lower == ".nan") return std::numeric_limits<double>::quiet_NaN();
  // Grammar: digits [. digits] [e [sign] digits], with at least one digit before the exponent.
  std::size_t i = 0;
  std::size_t mantissa_digits = 0;
  while (i < body.size() && IsDigit(body[i])) ++i, ++mantissa_digits;
  if (i < body.size() && body[i] == '.') {
    ++i;
    while (i < body.size() && IsDigit(body[i])) ++i, ++mantissa_digits;
  }
  if (mantissa_digits == 0) return std::nullopt;
  if (i < body.size() && (body[i] == 'e' || body[i] == 'E')) {
    ++i;
    if (i < body.size() && (body[i] == '+' || body[i] == '-')) ++i;
    std::size_t exponent_digits = 0;
    while (i < body.size() && IsDigit(body[i])) ++i, ++exponent_digits;
    if (exponent_digits == 0) return std::nullopt;
  }
  if (i != body.size()) return std::nullopt;
  double value = 0;
  auto [end, error] = std::from_chars(body.data(), body.data() + body.size(), value);
  if (error == std::errc::result_out_of_range) {
    return sign * std::numeric_limits<double>::infinity();
  }
  if (error != std::errc() || end != body.data() + body.size()) return std::nullopt;
  return sign * value;
}

std::optional<bool> ParseBool(std::string_view text) {
  const std::string lower = Lowercase(text);
  if (lower == "true" || lower == "yes" || lower == "on") return true;
  if (lower == "false" || lower == "no" || lower == "off") return false;
  return std::nullopt;
}

bool IsNullSpelling(std::string_view text) {
  return text.empty() || text == "~" || text == "null" || text == "Null" || text == "NULL";
}

std::string FormatFloat(double value) {
  if (std::isnan(value)) return ".nan";
  if (std::isinf(value)) return value < 0 ? "-.inf" : ".inf";
  char buffer[64];
  auto [end, error] = std::to_chars(buffer, buffer + sizeof(buffer), value);
  std::string text(buffer, end);
  // Keep it recognisably a float for readers that type by spelling.
  if (text.find_first_of(".eEn") == std::string::npos) text += ".0";
  return text;
}

}  // namespace dlbench::config
