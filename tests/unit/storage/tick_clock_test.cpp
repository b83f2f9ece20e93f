#include "storage/tick_clock.h"

#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <string>
#include <thread>

namespace dlbench::storage {
namespace {

using namespace std::chrono_literals;
using Steady = std::chrono::steady_clock;

double SecondsSince(Steady::time_point origin) {
  return std::chrono::duration<double>(Steady::now() - origin).count();
}

// Whether this machine's kernel keeps time with the time-stamp counter (then the clock must use
// it: that is its point).
bool KernelUsesTsc() {
  std::ifstream in("/sys/devices/system/clocksource/clocksource0/current_clocksource");
  std::string name;
  return in >> name && name == "tsc";
}

TEST(TickClock, CountsCyclesWhereTheKernelKeepsTimeWithTheTimeStampCounter) {
  const TickClock best(Steady::now());
#if defined(__x86_64__)
  EXPECT_EQ(best.counts_cycles(), KernelUsesTsc());
#else
  EXPECT_FALSE(best.counts_cycles());
#endif
  const TickClock steady(Steady::now(), TickClock::Source::kSteady);
  EXPECT_FALSE(steady.counts_cycles());
  EXPECT_EQ(steady.scale().seconds_per_tick, 1e-9);
}

// A converted reading lies between steady-clock reads taken just before and after it (a few
// microseconds of slack for the rate's measurement), however soon or late it is converted.
void ExpectReadingsAgreeWithTheSteadyClock(TickClock::Source source) {
  const Steady::time_point origin = Steady::now() - 1s;  // readings start near 1 s
  const TickClock clock(origin, source);
  for (const auto pause : {0ms, 1ms, 30ms}) {
    std::this_thread::sleep_for(pause);
    const double before = SecondsSince(origin);
    const double reading = clock.now();
    const double after = SecondsSince(origin);
    const double seconds = clock.scale().time(reading);
    EXPECT_GE(seconds, before - 5e-6) << "after a pause of " << pause.count() << " ms";
    EXPECT_LE(seconds, after + 5e-6) << "after a pause of " << pause.count() << " ms";
  }
}

TEST(TickClock, ReadingsConvertToTheSteadyClocksSecondsSinceTheOrigin) {
  ExpectReadingsAgreeWithTheSteadyClock(TickClock::Source::kBest);
  ExpectReadingsAgreeWithTheSteadyClock(TickClock::Source::kSteady);
}

TEST(TickClock, DifferencesOfReadingsConvertToDurations) {
  for (const auto source : {TickClock::Source::kBest, TickClock::Source::kSteady}) {
    const TickClock clock(Steady::now(), source);
    const Steady::time_point start = Steady::now();
    const double t1 = clock.now();
    std::this_thread::sleep_for(20ms);
    const double t2 = clock.now();
    const double elapsed = SecondsSince(start);
    const double duration = clock.scale().duration(t2 - t1);
    EXPECT_GE(duration, 0.020 - 5e-6);
    EXPECT_LE(duration, elapsed + 5e-6);
  }
}

// The counters' records keep 0 for "no time": no reading is 0, and 0 converts to 0.
TEST(TickClock, NoReadingIsZeroAndZeroStaysZero) {
  for (const auto source : {TickClock::Source::kBest, TickClock::Source::kSteady}) {
    const TickClock clock(Steady::now() - 1s, source);
    EXPECT_GE(clock.now(), 1.0);
    EXPECT_EQ(clock.scale().time(0), 0.0);
    EXPECT_GT(clock.scale().time(clock.now()), 0.99);
  }
}

}  // namespace
}  // namespace dlbench::storage
