#include "metrics/clock.h"

#include <gtest/gtest.h>

#include <regex>

namespace dlbench::metrics {
namespace {

using std::chrono::seconds;

// 2026-11-21T04:32:49.123456Z
WallTime Example() {
  return WallTime(std::chrono::duration_cast<WallTime::duration>(
      std::chrono::microseconds(1795235569123456LL)));
}

TEST(FormatRfc3339, ExplicitOffsetAndMicroseconds) {
  EXPECT_EQ(FormatRfc3339(Example(), seconds(0)), "2026-11-21T04:32:49.123456+00:00");
  EXPECT_EQ(FormatRfc3339(Example(), seconds(3600)), "2026-11-21T05:32:49.123456+01:00");
  EXPECT_EQ(FormatRfc3339(Example(), seconds(-(5 * 3600 + 1800))),
            "2026-11-20T23:02:49.123456-05:30");
}

TEST(FormatRfc3339, BeforeTheEpochKeepsAPositiveFraction) {
  const WallTime t = WallTime(std::chrono::duration_cast<WallTime::duration>(
      std::chrono::microseconds(-1500000)));  // 1969-12-31T23:59:58.5Z
  EXPECT_EQ(FormatRfc3339(t, seconds(0)), "1969-12-31T23:59:58.500000+00:00");
}

TEST(FormatLocalRfc3339, HasTheRfc3339Shape) {
  const std::regex shape(R"(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}[+-]\d{2}:\d{2})");
  EXPECT_TRUE(std::regex_match(FormatLocalRfc3339(Example()), shape));
}

TEST(Now, IsMonotonic) {
  const Seconds a = Now();
  const Seconds b = Now();
  EXPECT_LE(a, b);
}

TEST(WallClockAnchor, MapsMonotonicTimesToWallTimes) {
  const WallClockAnchor anchor(100.0, Example());
  EXPECT_EQ(FormatRfc3339(anchor.wall_at(101.5), seconds(0)), "2026-11-21T04:32:50.623456+00:00");
  EXPECT_EQ(FormatRfc3339(anchor.wall_at(99.0), seconds(0)), "2026-11-21T04:32:48.123456+00:00");
}

TEST(WallClockAnchor, CaptureUsesTheRecordsTimeBase) {
  // Records are Now() - origin; with an origin 1000 s ago, record time 0 was ~1000 s ago.
  const Seconds origin = Now() - 1000;
  const WallClockAnchor anchor = WallClockAnchor::Capture(origin);
  const auto age =
      std::chrono::duration<double>(std::chrono::system_clock::now() - anchor.wall_at(0.0)).count();
  EXPECT_GT(age, 900);  // generous margins: this checks the time base, not timing
  EXPECT_LT(age, 1100);
}

}  // namespace
}  // namespace dlbench::metrics
