#include "storage/tick_clock.h"

#include <fstream>
#include <string>

namespace dlbench::storage {

namespace {

// Whether the kernel keeps time with the time-stamp counter: then it is invariant and the same
// on every core (the kernel checked both before choosing it).
bool KernelClockIsTsc() {
#if defined(__x86_64__)
  std::ifstream in("/sys/devices/system/clocksource/clocksource0/current_clocksource");
  std::string name;
  return in >> name && name == "tsc";
#else
  return false;
#endif
}

double SecondsBetween(TickClock::SteadyTime from, TickClock::SteadyTime to) {
  return std::chrono::duration<double>(to - from).count();
}

}  // namespace

TickClock::TickClock(SteadyTime origin, Source source)
    : tsc_(source == Source::kBest && KernelClockIsTsc()), origin_(origin) {
  start_time_ = std::chrono::steady_clock::now();
  start_ticks_ = read_ticks();
}

TickClock::Scale TickClock::scale() const {
  Scale scale;
  scale.offset = SecondsBetween(origin_, start_time_);
  if (!tsc_) return scale;  // nanoseconds
  // The steady clock read between two counter readings, and matched with their mean.
  const std::int64_t before = read_ticks();
  const SteadyTime now = std::chrono::steady_clock::now();
  const std::int64_t after = read_ticks();
  const double ticks =
      static_cast<double>(before - start_ticks_) + static_cast<double>(after - before) / 2;
  const double seconds = SecondsBetween(start_time_, now);
  // Right after construction no tick may have passed: then every reading converts to the start.
  scale.seconds_per_tick = ticks > 0 && seconds > 0 ? seconds / ticks : 0;
  return scale;
}

}  // namespace dlbench::storage
