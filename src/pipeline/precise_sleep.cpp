#include "pipeline/precise_sleep.h"

#include <sys/prctl.h>

#include <thread>

namespace dlbench::pipeline {

namespace {

// Best effort: a kernel that refuses leaves the default slack, and waits are only later.
void SetTimerSlackOnce() {
  thread_local bool applied = prctl(PR_SET_TIMERSLACK, kTimerSlack.count(), 0, 0, 0) == 0;
  (void)applied;
}

}  // namespace

void PreciseSleepUntil(std::chrono::steady_clock::time_point deadline) {
  using Clock = std::chrono::steady_clock;
  SetTimerSlackOnce();
  const Clock::time_point wake = deadline - kSpinMargin;
  if (Clock::now() < wake) std::this_thread::sleep_until(wake);
  while (Clock::now() < deadline) {
    // Busy wait: a yield or pause would hand the core away for longer than the margin.
  }
}

std::chrono::steady_clock::time_point DeadlineAfter(std::chrono::steady_clock::time_point start,
                                                    Seconds duration) {
  using Clock = std::chrono::steady_clock;
  if (!(duration > 0)) return start;
  return start + std::chrono::ceil<Clock::duration>(std::chrono::duration<double>(duration));
}

void PreciseSleep(Seconds duration) {
  if (!(duration > 0)) return;
  PreciseSleepUntil(DeadlineAfter(std::chrono::steady_clock::now(), duration));
}

}  // namespace dlbench::pipeline
