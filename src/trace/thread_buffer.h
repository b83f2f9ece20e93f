// One thread's trace buffer: a single-producer single-consumer ring of fixed 64-byte slots. The
// thread that owns it writes events (no lock, no allocation, no formatting: a few stores and one
// release store of `head`); the recorder's writer thread reads them and advances `tail`. An event
// that names a path carries the path's bytes in the slots that follow it.
//
// Owned by the Recorder, which keeps every buffer until it is destroyed, so a thread that exits
// leaves its last events to be written; its buffer then serves the next new thread (reader pools
// start new threads every epoch), so memory is bounded by the threads alive at once.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>

#include "trace/event.h"

namespace dlbench::trace {

// One cache line, aligned to one: recording an event writes a single line (an unaligned slot
// would straddle two, and the writer would read lines the producer is still writing).
struct alignas(64) Slot {
  std::int64_t start_ns = 0;  // steady clock
  std::int64_t dur_ns = 0;
  std::uint64_t file = 0;  // hash of the path the event concerns; 0: none
  std::int64_t args[kMaxArgs] = {};
  Event event = Event::kCount;
  std::uint8_t reserved = 0;
  std::uint16_t path_slots = 0;  // slots after this one holding the path's bytes
  std::uint32_t path_length = 0;
  std::uint32_t lane = 0;  // 0: the recording thread; k > 0: synthetic track k (RecordOnTracks)
  std::uint32_t tid = 0;   // the recording thread (a buffer passes to a new thread when one exits)
};
static_assert(sizeof(Slot) == 64 && alignof(Slot) == 64);

inline constexpr std::size_t kMaxPathBytes = 4096;  // longer paths are cut (the hash is whole)

// The smallest buffer a recorder accepts: one event with the longest path (its slot and
// kMaxPathBytes / 64 slots of path) must fit, or a thread under the block policy would wait for
// room that can never be made.
inline constexpr std::size_t kMinBufferEvents = 128;
static_assert(kMinBufferEvents >= 1 + kMaxPathBytes / sizeof(Slot));

class ThreadBuffer {
 public:
  // `capacity` slots, a power of two, left uninitialized: the producer writes a slot whole before
  // publishing it, so setting up a thread's buffer costs no stores, and its pages are mapped as
  // the first lap reaches them (the memory in use grows with the events, up to the capacity).
  // Initializing them here (`new Slot[capacity]`) wrote all of a 4 MiB buffer on a thread's first
  // event (results/trace.md).
  explicit ThreadBuffer(std::size_t capacity)
      : slots_(static_cast<Slot*>(
            ::operator new[](capacity * sizeof(Slot), std::align_val_t{alignof(Slot)}))),
        mask_(capacity - 1) {}

  std::size_t capacity() const { return mask_ + 1; }

  // Whether a live thread records into it (guarded by the recorder's registry mutex).
  bool in_use = true;

  // ---- producer (the owning thread) ----
  // Whether `n` slots are free now.
  bool has_room(std::size_t n) {
    const std::uint64_t head = head_.load(std::memory_order_relaxed);
    if (head + n - cached_tail_ <= capacity()) return true;
    cached_tail_ = tail_.load(std::memory_order_acquire);
    return head + n - cached_tail_ <= capacity();
  }
  // Slot `i` after the published head (valid after has_room(i + 1)).
  Slot& pending(std::size_t i) {
    return slots_[(head_.load(std::memory_order_relaxed) + i) & mask_];
  }
  void publish(std::size_t n) {
    head_.store(head_.load(std::memory_order_relaxed) + n, std::memory_order_release);
  }

  // ---- consumer (the writer thread) ----
  std::uint64_t published() const { return head_.load(std::memory_order_acquire); }
  std::uint64_t consumed() const { return tail_.load(std::memory_order_relaxed); }
  const Slot& at(std::uint64_t index) const { return slots_[index & mask_]; }
  void consume_to(std::uint64_t index) { tail_.store(index, std::memory_order_release); }

  // Overflow accounting (written by the producer, read at the end).
  std::atomic<std::uint64_t> dropped{0};
  std::atomic<std::uint64_t> blocked{0};
  std::atomic<std::int64_t> blocked_ns{0};

 private:
  struct FreeSlots {
    void operator()(Slot* slots) const {
      ::operator delete[](slots, std::align_val_t{alignof(Slot)});
    }
  };
  std::unique_ptr<Slot[], FreeSlots> slots_;  // Slot is an implicit-lifetime aggregate
  std::size_t mask_;
  alignas(64) std::atomic<std::uint64_t> head_{0};
  std::uint64_t cached_tail_ = 0;  // producer's last view of tail_
  alignas(64) std::atomic<std::uint64_t> tail_{0};
};

}  // namespace dlbench::trace
