#include "pipeline/precise_sleep.h"

#include <thread>

namespace dlbench::pipeline {

void PreciseSleepUntil(std::chrono::steady_clock::time_point deadline) {
  using Clock = std::chrono::steady_clock;
  const Clock::time_point wake = deadline - kSpinMargin;
  if (Clock::now() < wake) std::this_thread::sleep_until(wake);
  while (Clock::now() < deadline) {
    // Busy wait: a yield or pause would hand the core away for longer than the margin.
  }
}

void PreciseSleep(Seconds duration) {
  if (!(duration > 0)) return;
  using Clock = std::chrono::steady_clock;
  const Clock::time_point start = Clock::now();
  // Round up so that the wait is never shorter than asked.
  const auto length = std::chrono::ceil<Clock::duration>(std::chrono::duration<double>(duration));
  PreciseSleepUntil(start + length);
}

}  // namespace dlbench::pipeline
