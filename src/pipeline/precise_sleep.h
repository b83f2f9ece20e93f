// The emulated accelerator's clock: waits for a given duration with sub-millisecond error.
// std::this_thread::sleep_for alone overshoots by the timer slack plus the scheduler's wake-up
// latency (50 µs to several ms on a loaded node), which would inflate every emulated compute
// step and so the reported AU; spinning for the whole duration would take a core from the reader
// threads. So: sleep until a margin before the deadline, then spin on steady_clock.
#pragma once

#include <chrono>

#include "util/units.h"

namespace dlbench::pipeline {

// How long before the deadline the sleep ends and the spin starts. Covers the usual wake-up
// latency of an idle core; a later wake-up makes the wait late by the excess, never early.
inline constexpr std::chrono::microseconds kSpinMargin{200};

// Timer slack of a thread that waits here (prctl PR_SET_TIMERSLACK, set once per thread on its
// first wait): Linux's default 50 µs lets every timed sleep of the thread — this wait's, and the
// step barrier's polling sleeps on the same thread — end up to 50 µs late.
inline constexpr std::chrono::nanoseconds kTimerSlack{1000};

// Returns at, or as soon as possible after, `deadline`; never before it.
void PreciseSleepUntil(std::chrono::steady_clock::time_point deadline);

// `start` + `duration` seconds, rounded up to the clock's tick (≤ 0: `start`), so that a wait
// until it is never shorter than asked.
std::chrono::steady_clock::time_point DeadlineAfter(std::chrono::steady_clock::time_point start,
                                                    Seconds duration);

// Waits `duration` seconds (≤ 0: returns at once), never less.
void PreciseSleep(Seconds duration);

}  // namespace dlbench::pipeline
