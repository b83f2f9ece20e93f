#include "config/units_parser.h"

#include <cmath>
#include <utility>

#include "config/scalar_parser.h"
#include "util/size_text.h"

namespace dlbench::config {
namespace {

std::string_view Trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

// Splits "12.5 MiB" into the number and the unit.
std::pair<std::string_view, std::string_view> SplitUnit(std::string_view text) {
  text = Trim(text);
  std::size_t end = text.size();
  while (end > 0 && ((text[end - 1] >= 'a' && text[end - 1] <= 'z') ||
                     (text[end - 1] >= 'A' && text[end - 1] <= 'Z'))) {
    --end;
  }
  return {Trim(text.substr(0, end)), text.substr(end)};
}

std::optional<double> SizeFactor(std::string_view unit) {
  static constexpr std::pair<const char*, double> kUnits[] = {{"", 1.0},
                                                              {"B", 1.0},
                                                              {"KiB", 1024.0},
                                                              {"MiB", 1048576.0},
                                                              {"GiB", 1073741824.0},
                                                              {"TiB", 1099511627776.0},
                                                              {"KB", 1e3},
                                                              {"MB", 1e6},
                                                              {"GB", 1e9},
                                                              {"TB", 1e12}};
  for (const auto& [name, factor] : kUnits) {
    if (unit == name) return factor;
  }
  return std::nullopt;
}

std::optional<double> SizeValue(std::string_view text) {
  auto [number, unit] = SplitUnit(text);
  const auto value = ParseFloat(number);
  const auto factor = SizeFactor(unit);
  if (!value || !factor || !std::isfinite(*value) || *value < 0) return std::nullopt;
  return *value * *factor;
}

}  // namespace

std::optional<Bytes> ParseSize(std::string_view text) {
  const auto bytes = SizeValue(text);
  if (!bytes || *bytes != std::floor(*bytes) || *bytes >= 18446744073709551616.0) {
    return std::nullopt;
  }
  return static_cast<Bytes>(*bytes);
}

std::optional<BytesPerSecond> ParseRate(std::string_view text) {
  text = Trim(text);
  if (text.size() >= 2 && text.substr(text.size() - 2) == "/s") {
    text.remove_suffix(2);
  }
  return SizeValue(text);
}

std::optional<Seconds> ParseDuration(std::string_view text) {
  auto [number, unit] = SplitUnit(text);
  const auto value = ParseFloat(number);
  if (!value || !std::isfinite(*value) || *value < 0) return std::nullopt;
  if (unit.empty() || unit == "s") return *value;
  if (unit == "ms") return *value / 1e3;
  if (unit == "us") return *value / 1e6;
  return std::nullopt;
}

std::string FormatRate(BytesPerSecond rate) {
  if (rate >= 0 && rate < 1.8e19 && rate == std::floor(rate)) {
    return FormatSize(static_cast<Bytes>(rate)) + "/s";
  }
  return FormatFloat(rate) + "B/s";
}

std::string FormatDuration(Seconds seconds) {
  // The shortest spelling that reads back to exactly the same value: 2ms, not 0.002s.
  std::string best = FormatFloat(seconds) + "s";
  for (const auto& [unit, factor] :
       {std::pair<const char*, double>{"s", 1.0}, {"ms", 1e3}, {"us", 1e6}}) {
    std::string text = FormatFloat(seconds * factor);
    if (text.size() > 2 && text.compare(text.size() - 2, 2, ".0") == 0) {
      text.resize(text.size() - 2);
    }
    text += unit;
    if (ParseDuration(text) == seconds && text.size() < best.size()) best = text;
  }
  return best;
}

}  // namespace dlbench::config
