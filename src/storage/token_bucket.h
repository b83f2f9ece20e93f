// A token bucket limiting the bytes per second that pass through it, shared by every thread of
// a rank that uses one storage tier. A request larger than the tokens available takes them on
// credit and sleeps until the debt is paid, so concurrent requests queue up in order and the
// long-run rate never exceeds `rate`, whatever the request sizes. The bucket starts empty: a
// transfer that begins with the bucket (a run, a checkpoint) never exceeds `rate`, however short;
// only an idle period (or a sleep that woke late) lets up to `burst` bytes through at once
// afterwards. So when every request acquires before its bytes move, the bytes that move in any
// window of W seconds are at most rate × W + burst: tokens at the window's start (≤ burst) plus
// what the window refills.
#pragma once

#include <mutex>

#include "storage/throttle_clock.h"
#include "util/units.h"

namespace dlbench::storage {

class TokenBucket {
 public:
  // `burst`: bytes that may pass at once after an idle period (at least 1).
  TokenBucket(BytesPerSecond rate, Bytes burst, ThrottleClock& clock);

  // Takes `bytes` tokens, sleeping (outside the lock) as long as the rate requires.
  void acquire(Bytes bytes);
  // Returns tokens taken for bytes that did not move (a read that came back short), up to the
  // burst.
  void refund(Bytes bytes);
  BytesPerSecond rate() const { return rate_; }

 private:
  BytesPerSecond rate_;
  double burst_;
  ThrottleClock& clock_;
  std::mutex mutex_;
  double tokens_;  // may be negative: debt of requests still sleeping
  Seconds last_;   // time of the last refill
};

}  // namespace dlbench::storage
