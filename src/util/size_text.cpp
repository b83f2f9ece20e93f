#include "util/size_text.h"

#include <cstdio>
#include <utility>

namespace dlbench {
namespace {

constexpr const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};

std::string Format(const char* format, double value, const char* unit) {
  char text[64];
  std::snprintf(text, sizeof text, format, value, unit);
  return text;
}

std::string WithUnit(double value, const char* suffix) {
  int unit = 0;
  while (value >= 1024.0 && unit < 5) {
    value /= 1024.0;
    ++unit;
  }
  return Format("%.4g %s", value, kUnits[unit]) + suffix;
}

}  // namespace

std::string DescribeBytes(Bytes bytes) { return WithUnit(static_cast<double>(bytes), ""); }
std::string DescribeRate(BytesPerSecond rate) { return WithUnit(rate, "/s"); }
std::string DescribeSeconds(Seconds seconds) {
  if (seconds < 1e-3) return Format("%.4g %s", seconds * 1e6, "us");
  if (seconds < 1.0) return Format("%.4g %s", seconds * 1e3, "ms");
  return Format("%.4g %s", seconds, "s");
}

std::string FormatSize(Bytes bytes) {
  for (int unit = 4; unit >= 1; --unit) {
    const Bytes factor = Bytes{1} << (10 * unit);
    if (bytes != 0 && bytes % factor == 0) return std::to_string(bytes / factor) + kUnits[unit];
  }
  return std::to_string(bytes) + "B";
}

std::string FormatBytesExact(Bytes bytes) {
  const std::string digits = std::to_string(bytes);
  std::string out;
  const std::size_t n = digits.size();
  for (std::size_t i = 0; i < n; ++i) {
    if (i > 0 && (n - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string FormatGiB(Bytes bytes) {
  return Format("%.2f %s", static_cast<double>(bytes) / static_cast<double>(GiB), "GiB");
}

}  // namespace dlbench
