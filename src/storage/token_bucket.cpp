#include "storage/token_bucket.h"

#include <algorithm>
#include <chrono>
#include <string>
#include <thread>

#include "util/error.h"

namespace dlbench::storage {
namespace {

class SteadyClock final : public ThrottleClock {
 public:
  Seconds now() override {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
  }
  void sleep_for(Seconds duration) override {
    if (duration > 0) std::this_thread::sleep_for(std::chrono::duration<double>(duration));
  }
};

}  // namespace

ThrottleClock& SteadyThrottleClock() {
  static SteadyClock clock;
  return clock;
}

TokenBucket::TokenBucket(BytesPerSecond rate, Bytes burst, ThrottleClock& clock)
    : rate_(rate),
      burst_(static_cast<double>(std::max<Bytes>(burst, 1))),
      clock_(clock),
      tokens_(0),  // no idle period has passed yet: a transfer from the start gets no burst
      last_(clock.now()) {
  if (!(rate > 0)) {
    // config::Validate holds storage.tiers.*.bandwidth_limit > 0.
    throw InternalError("a bandwidth limit must be positive, got " + std::to_string(rate) +
                        " bytes/s");
  }
}

void TokenBucket::acquire(Bytes bytes) {
  Seconds wait = 0;
  {
    std::lock_guard lock(mutex_);
    const Seconds now = clock_.now();
    tokens_ = std::min(burst_, tokens_ + (now - last_) * rate_);
    last_ = now;
    tokens_ -= static_cast<double>(bytes);
    if (tokens_ < 0) wait = -tokens_ / rate_;
  }
  clock_.sleep_for(wait);
}

void TokenBucket::refund(Bytes bytes) {
  std::lock_guard lock(mutex_);
  tokens_ = std::min(burst_, tokens_ + static_cast<double>(bytes));
}

}  // namespace dlbench::storage
