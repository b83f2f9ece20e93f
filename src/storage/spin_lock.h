// A lock for a handful of instructions, taken almost always uncontended: one test-and-set to take
// it and a plain store to release it (a std::mutex costs an atomic read-modify-write on each side,
// ~40 ns per lock and unlock on this project's VM, and forty bytes). A waiter yields its core
// between tries, so it suits only critical sections far shorter than a time slice.
#pragma once

#include <atomic>
#include <thread>

namespace dlbench::storage {

class SpinLock {
 public:
  void lock() {
    while (flag_.test_and_set(std::memory_order_acquire)) std::this_thread::yield();
  }
  void unlock() { flag_.clear(std::memory_order_release); }

 private:
  std::atomic_flag flag_ = ATOMIC_FLAG_INIT;
};

}  // namespace dlbench::storage
