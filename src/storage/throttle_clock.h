// The time source of throttles. Real runs use SteadyThrottleClock(); tests pass a fake clock
// whose sleep just advances its time, so throttling is tested without timing anything.
#pragma once

#include "util/units.h"

namespace dlbench::storage {

class ThrottleClock {
 public:
  virtual ~ThrottleClock() = default;
  virtual Seconds now() = 0;  // monotonic
  virtual void sleep_for(Seconds duration) = 0;
};

// std::chrono::steady_clock and std::this_thread::sleep_for. Thread-safe.
ThrottleClock& SteadyThrottleClock();

}  // namespace dlbench::storage
