// Time sources for measurements: a monotonic clock for durations and an RFC 3339 formatter for
// the wall-clock timestamps that go into result files.
#pragma once

#include <chrono>
#include <string>

#include "util/units.h"

namespace dlbench::metrics {

// Seconds on std::chrono::steady_clock (arbitrary origin). Only differences are meaningful;
// durations never jump with NTP or daylight-saving changes.
Seconds Now();

using WallTime = std::chrono::system_clock::time_point;

// RFC 3339 with microseconds and an explicit offset, e.g. "2026-11-21T05:32:49.123456+01:00".
// `utc_offset` is the local zone's offset from UTC at `time` (DLIO writes local time without a
// zone, which is ambiguous; the offset makes the timestamp unambiguous).
std::string FormatRfc3339(WallTime time, std::chrono::seconds utc_offset);

// The same in the process's local time zone (offset taken from the C library for that instant).
std::string FormatLocalRfc3339(WallTime time);
// FormatLocalRfc3339 of the wall clock now (a phase's start and end in its summary).
std::string NowLocalRfc3339();

// A pairing of one steady-clock instant with the wall clock, so that monotonic measurements can be
// written as wall-clock timestamps without reading the wall clock while timing.
class WallClockAnchor {
 public:
  // Reads both clocks now. `origin` is subtracted from Now() so that the anchor uses the same
  // time base as the records (step_record.h: Now() minus SynchronizedOrigin()).
  static WallClockAnchor Capture(Seconds origin = 0);
  WallClockAnchor(Seconds monotonic, WallTime wall) : monotonic_(monotonic), wall_(wall) {}

  // The wall-clock time at which Now() returned `monotonic`.
  WallTime wall_at(Seconds monotonic) const;
  // FormatLocalRfc3339(WallAt(monotonic)).
  std::string timestamp(Seconds monotonic) const;

 private:
  Seconds monotonic_;
  WallTime wall_;
};

}  // namespace dlbench::metrics
