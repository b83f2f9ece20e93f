// The bounded hand-over between reader threads and the trainer: a ring of `capacity` reusable
// slots, one per batch in flight, addressed by the batch's sequence number (its step). Slot
// seq % capacity carries batch seq; it can be filled only after the consumer has released batch
// seq − capacity, and it is handed to the consumer only when batch seq is complete. So batches
// reach the trainer in step order however many threads fill them and in whatever order they
// finish, at most `capacity` batches exist at a time (bounded memory: the slots are allocated
// once and reused, nothing per batch), and a fast reader is held back exactly as a full
// prefetch queue would hold it.
//
// Any number of producers and consumers may use it, each with sequence numbers it obtained
// elsewhere (the reader pool hands them out in increasing order); each sequence number must be
// filled and taken exactly once. One mutex and two condition variables; one lock per batch,
// never per sample.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "util/error.h"

namespace dlbench::pipeline {

template <typename T>
class PrefetchQueue {
 public:
  // `capacity` < 1 is taken as 1. Every slot starts as a copy of `prototype`, so buffers in it
  // can be sized once here.
  explicit PrefetchQueue(std::size_t capacity, const T& prototype = T())
      : slots_(capacity < 1 ? 1 : capacity, Slot{prototype}) {
    for (std::size_t i = 0; i < slots_.size(); ++i) slots_[i].seq = i;
  }
  PrefetchQueue(const PrefetchQueue&) = delete;
  PrefetchQueue& operator=(const PrefetchQueue&) = delete;

  std::size_t capacity() const { return slots_.size(); }

  // Producer: waits until the slot of batch `seq` is free and returns it for filling; nullptr
  // once the queue is closed. Call publish(seq) when it is filled.
  T* acquire(std::uint64_t seq) { return acquire_until(seq, Clock::time_point::max()); }
  // As acquire(), but also nullptr after `timeout` (then the slot was not taken).
  template <typename Rep, typename Period>
  T* acquire_for(std::uint64_t seq, std::chrono::duration<Rep, Period> timeout) {
    return acquire_until(seq, Clock::now() + timeout);
  }
  void publish(std::uint64_t seq) {
    {
      std::lock_guard lock(mutex_);
      Slot& slot = slot_of(seq);
      Check(slot, seq, State::kFilling, "publish");
      slot.state = State::kFull;
    }
    consumers_.notify_all();
  }

  // Consumer: waits until batch `seq` is published and returns it; nullptr once the queue is
  // closed (batches published before close() are still returned). Call release(seq) when done.
  T* take(std::uint64_t seq) { return take_until(seq, Clock::time_point::max()); }
  template <typename Rep, typename Period>
  T* take_for(std::uint64_t seq, std::chrono::duration<Rep, Period> timeout) {
    return take_until(seq, Clock::now() + timeout);
  }
  void release(std::uint64_t seq) {
    {
      std::lock_guard lock(mutex_);
      Slot& slot = slot_of(seq);
      Check(slot, seq, State::kTaken, "release");
      slot.state = State::kFree;
      slot.seq = seq + slots_.size();
    }
    producers_.notify_all();
  }

  // Wakes every waiter; from now on acquire() returns nullptr, and take() returns nullptr for a
  // batch that is not already complete.
  void close() {
    {
      std::lock_guard lock(mutex_);
      closed_ = true;
    }
    producers_.notify_all();
    consumers_.notify_all();
  }
  bool closed() const {
    std::lock_guard lock(mutex_);
    return closed_;
  }
  // Whether a producer holds a slot it has not published yet (is filling a batch now).
  bool filling() const {
    std::lock_guard lock(mutex_);
    for (const Slot& slot : slots_) {
      if (slot.state == State::kFilling) return true;
    }
    return false;
  }
  // Whether batch `seq` is published and not yet taken: take(seq) would not wait.
  bool complete(std::uint64_t seq) const {
    std::lock_guard lock(mutex_);
    const Slot& slot = slots_[seq % slots_.size()];
    return slot.seq == seq && slot.state == State::kFull;
  }

 private:
  using Clock = std::chrono::steady_clock;
  enum class State { kFree, kFilling, kFull, kTaken };
  struct Slot {
    T value;
    std::uint64_t seq = 0;  // the batch this slot carries next (or now)
    State state = State::kFree;
  };

  Slot& slot_of(std::uint64_t seq) { return slots_[seq % slots_.size()]; }

  static void Check(const Slot& slot, std::uint64_t seq, State expected, const char* op) {
    if (slot.seq != seq || slot.state != expected) {
      throw Error(ExitCode::kInternal, std::string("prefetch queue: ") + op + " of batch " +
                                           std::to_string(seq) + " out of protocol");
    }
  }

  template <typename Predicate>
  bool wait(std::unique_lock<std::mutex>& lock, std::condition_variable& cv,
            Clock::time_point deadline, Predicate ready) {
    if (deadline == Clock::time_point::max()) {
      cv.wait(lock, ready);
      return true;
    }
    return cv.wait_until(lock, deadline, ready);
  }

  T* acquire_until(std::uint64_t seq, Clock::time_point deadline) {
    std::unique_lock lock(mutex_);
    Slot& slot = slot_of(seq);
    if (slot.seq > seq) {
      throw Error(ExitCode::kInternal,
                  "prefetch queue: batch " + std::to_string(seq) + " acquired twice");
    }
    const bool ready = wait(lock, producers_, deadline, [&] {
      return closed_ || (slot.seq == seq && slot.state == State::kFree);
    });
    if (!ready || closed_) return nullptr;
    slot.state = State::kFilling;
    return &slot.value;
  }

  T* take_until(std::uint64_t seq, Clock::time_point deadline) {
    std::unique_lock lock(mutex_);
    Slot& slot = slot_of(seq);
    const bool ready = wait(lock, consumers_, deadline, [&] {
      return (slot.seq == seq && slot.state == State::kFull) || closed_;
    });
    if (!ready || slot.seq != seq || slot.state != State::kFull) return nullptr;
    slot.state = State::kTaken;
    return &slot.value;
  }

  mutable std::mutex mutex_;
  std::condition_variable producers_;
  std::condition_variable consumers_;
  std::vector<Slot> slots_;
  bool closed_ = false;
};

}  // namespace dlbench::pipeline
