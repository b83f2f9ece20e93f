// A token bucket limiting the bytes per second that pass through it, shared by every thread of
// a rank that uses one storage tier. A request larger than the tokens available takes them on
// credit and sleeps until the debt is paid, so concurrent requests queue up in order and the
// long-run rate never exceeds `rate`, whatever the request sizes. The bucket starts empty: a
// transfer that begins with the bucket (a run, a checkpoint) never exceeds `rate`, however short;
// only an idle period lets up to `burst` bytes through at once afterwards.
//
// A request whose wait would be shorter than 2 ms does not sleep: its debt stays in the bucket
// and the first request whose wait reaches 2 ms sleeps it all. Sleeping per small request (a
// 64 KiB read at 300 MiB/s owes 0.2 ms) hands the CPU to other processes thousands of times a
// second; on a loaded machine each hand-back costs more than the sleep, and a 10 % limit slowed
// a run by 30 % (results/regression-detection.md). The long-run rate is unchanged; at most 2 ms
// of bytes more than `rate` allows pass ahead, and a transfer's last debt under 2 ms is not slept.
#pragma once

#include <mutex>

#include "storage/throttle_clock.h"
#include "util/units.h"

namespace dlbench::storage {

class TokenBucket {
 public:
  // `burst`: bytes that may pass at once after an idle period (at least 1).
  TokenBucket(BytesPerSecond rate, Bytes burst, ThrottleClock& clock);

  // Takes `bytes` tokens, sleeping (outside the lock) as long as the rate requires once the debt
  // reaches 2 ms.
  void acquire(Bytes bytes);
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
