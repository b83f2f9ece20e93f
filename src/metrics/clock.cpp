#include "metrics/clock.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>

namespace dlbench::metrics {

Seconds Now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

std::string FormatRfc3339(WallTime time, std::chrono::seconds utc_offset) {
  using std::chrono::duration_cast;
  using std::chrono::microseconds;
  // Shift to local time, then split into whole seconds and microseconds with floor semantics so
  // that instants before 1970 still get a non-negative fraction.
  const auto local = time + utc_offset;
  const auto since_epoch = duration_cast<microseconds>(local.time_since_epoch());
  auto whole = std::chrono::floor<std::chrono::seconds>(since_epoch);
  const long long micros = (since_epoch - whole).count();
  const std::time_t seconds = static_cast<std::time_t>(whole.count());
  std::tm fields{};
  gmtime_r(&seconds, &fields);

  // Real zone offsets are within +-26 h; the clamp keeps the field two digits wide.
  const int offset_minutes =
      static_cast<int>(std::clamp<long long>(utc_offset.count() / 60, -99 * 60, 99 * 60));
  const char sign = offset_minutes < 0 ? '-' : '+';
  const int offset_abs = std::abs(offset_minutes);
  char text[128];
  std::snprintf(text, sizeof(text), "%04d-%02d-%02dT%02d:%02d:%02d.%06lld%c%02d:%02d",
                fields.tm_year + 1900, fields.tm_mon + 1, fields.tm_mday, fields.tm_hour,
                fields.tm_min, fields.tm_sec, micros, sign, offset_abs / 60, offset_abs % 60);
  return text;
}

std::string FormatLocalRfc3339(WallTime time) {
  const std::time_t seconds =
      std::chrono::system_clock::to_time_t(std::chrono::floor<std::chrono::seconds>(time));
  std::tm local{};
  localtime_r(&seconds, &local);
  return FormatRfc3339(time, std::chrono::seconds(local.tm_gmtoff));
}

std::string NowLocalRfc3339() { return FormatLocalRfc3339(std::chrono::system_clock::now()); }

WallClockAnchor WallClockAnchor::Capture(Seconds origin) {
  return WallClockAnchor(Now() - origin, std::chrono::system_clock::now());
}

WallTime WallClockAnchor::wall_at(Seconds monotonic) const {
  const auto delta = std::chrono::duration<double>(monotonic - monotonic_);
  return wall_ + std::chrono::duration_cast<WallTime::duration>(delta);
}

std::string WallClockAnchor::timestamp(Seconds monotonic) const {
  return FormatLocalRfc3339(wall_at(monotonic));
}

}  // namespace dlbench::metrics
