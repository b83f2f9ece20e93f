// The clock of the POSIX counters' per-operation times (storage/counting_env.h), which read it
// five times per small file (before and after the open and the read, at the close): where the
// kernel keeps time with the CPU's time-stamp counter (clocksource tsc: invariant and synchronized
// across cores, x86-64 only), one rdtsc instruction (~24 ns on this project's VM, against ~44 ns
// for the steady clock through the vDSO, which reads the same counter and scales it); elsewhere
// the steady clock itself.
//
// A reading is in ticks; Scale converts ticks to seconds with the rate of the counter against the
// steady clock measured from construction to the moment scale() is called. Measured over that
// whole span, the rate's error makes no converted time (all of them lie inside the span) wrong by
// more than about the two clocks' read jitter (tens of nanoseconds), however soon after
// construction it is called; two scale() calls may differ in the last digits.
#pragma once

#include <chrono>
#include <cstdint>

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

namespace dlbench::storage {

class TickClock {
 public:
  using SteadyTime = std::chrono::steady_clock::time_point;
  enum class Source {
    kBest,    // the time-stamp counter when the kernel keeps time with it, else the steady clock
    kSteady,  // the steady clock (nanoseconds)
  };
  // `origin` (at or before now) is time 0 of the seconds that readings convert to.
  explicit TickClock(SteadyTime origin, Source source = Source::kBest);

  // Ticks since construction plus one: never 0, which the counters' records keep for "no time".
  double now() const { return static_cast<double>(read_ticks() - start_ticks_ + 1); }
  bool counts_cycles() const { return tsc_; }  // whether readings come from the time-stamp counter

  // Readings to seconds: a reading t ≠ 0 is the time offset + (t − 1) × seconds_per_tick since
  // the origin; a difference of readings is a duration of that many ticks.
  struct Scale {
    double offset = 0;
    double seconds_per_tick = 1e-9;
    double time(double ticks) const {
      return ticks == 0 ? 0 : offset + (ticks - 1) * seconds_per_tick;
    }
    double duration(double ticks) const { return ticks * seconds_per_tick; }
  };
  Scale scale() const;

 private:
  std::int64_t read_ticks() const;

  bool tsc_ = false;
  SteadyTime origin_;
  SteadyTime start_time_;
  std::int64_t start_ticks_ = 0;
};

inline std::int64_t TickClock::read_ticks() const {
#if defined(__x86_64__)
  if (tsc_) return static_cast<std::int64_t>(__rdtsc());
#endif
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace dlbench::storage
