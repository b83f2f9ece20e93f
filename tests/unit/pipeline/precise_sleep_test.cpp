#include "pipeline/precise_sleep.h"

#include <gtest/gtest.h>

#include <chrono>

namespace dlbench::pipeline {
namespace {

using Clock = std::chrono::steady_clock;

// Correctness only (never early); the error is measured in tests/bench/sleeper_bench.cpp.
TEST(PreciseSleep, NeverReturnsEarly) {
  for (double d : {0.0, 1e-6, 50e-6, 300e-6, 2e-3, 5e-3}) {
    const Clock::time_point start = Clock::now();
    PreciseSleep(d);
    const std::chrono::duration<double> took = Clock::now() - start;
    EXPECT_GE(took.count(), d) << "asked " << d;
  }
}

TEST(PreciseSleep, UntilAPastDeadlineReturnsAtOnce) {
  const Clock::time_point deadline = Clock::now();
  PreciseSleepUntil(deadline - std::chrono::seconds(1));
  EXPECT_GE(Clock::now(), deadline);
}

TEST(PreciseSleep, UntilNeverReturnsBeforeTheDeadline) {
  const Clock::time_point deadline = Clock::now() + std::chrono::milliseconds(3);
  PreciseSleepUntil(deadline);
  EXPECT_GE(Clock::now(), deadline);
}

}  // namespace
}  // namespace dlbench::pipeline
