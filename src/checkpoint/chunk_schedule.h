// Splits the files of one rank into fixed-size chunks that a pool of threads takes in order, so
// that a rank with one huge file still uses all its threads and every thread streams through a
// single reused buffer. Files are visited in plan order, and a FileWindow holds the state of the
// few files in flight: neither the schedule nor the window grows with the number of files.
#pragma once

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <limits>
#include <memory>
#include <mutex>
#include <vector>

#include "checkpoint/planned_files.h"
#include "storage/file.h"
#include "util/units.h"

namespace dlbench::checkpoint {

// What the threads taking chunks of one file share: the file, opened by the first thread that
// needs it (under `mutex`; not std::call_once, whose waiters block forever under libstdc++ when
// the opener throws, and opening can fail), and the chunks still to do, so that the
// thread finishing the last one closes or commits it.
template <typename Handle>
struct ChunkedFile {
  std::mutex mutex;
  bool open_attempted = false;
  std::unique_ptr<Handle> handle;  // null after a failed open
  std::atomic<std::uint64_t> chunks_left{0};
  std::uint64_t key = 0;
  Seconds start = 0;
  Seconds end = 0;
};

// Throws InternalError unless threads >= 1 (naming `threads_key`) and `buffer_bytes` is a
// positive multiple of the O_DIRECT alignment (so chunk offsets stay aligned). The thread counts
// come from keys config::Validate holds to >= 1 and the buffer sizes from dlbench's own
// constants: a failure here is a bug, not a configuration error. A usage error (exit 2, naming
// the key) when threads x buffer_bytes, allocated up front, is more than half of the host's
// physical memory.
void RequireThreadsAndBuffer(int threads, Bytes buffer_bytes, const char* threads_key);

struct Chunk {
  std::size_t file = 0;
  Bytes offset = 0;
  Bytes length = 0;  // 0 only for the single chunk of an empty file
};

// Files in a row of one size.
struct SizeRun {
  Bytes size = 0;
  std::uint64_t files = 0;
};

class ChunkSchedule {
 public:
  // The files of `runs`, in order: a few runs for a rank's planned files, whatever their number.
  ChunkSchedule(const std::vector<SizeRun>& runs, Bytes chunk_bytes);
  ChunkSchedule(const PlannedFiles& files, Bytes chunk_bytes);
  // One file of each size (adjacent files of one size are one run).
  ChunkSchedule(const std::vector<Bytes>& file_sizes, Bytes chunk_bytes);

  std::uint64_t size() const { return chunks_; }
  std::uint64_t chunks_in_file(std::size_t file) const { return run_of_file(file).chunks_per_file; }
  Chunk at(std::uint64_t index) const;

 private:
  struct Run {
    Bytes size = 0;
    std::uint64_t first_file = 0;
    std::uint64_t first_chunk = 0;
    std::uint64_t chunks_per_file = 0;
  };
  void add(const SizeRun& run);
  const Run& run_of_file(std::size_t file) const;

  std::vector<Run> runs_;
  std::uint64_t files_ = 0;
  std::uint64_t chunks_ = 0;
  Bytes chunk_bytes_;
};

// The files of a chunked pass that are in flight at once: file i takes slot i % slots once file
// i - slots is done, so a pass over a million files holds `slots` files' state. Chunks are taken
// in order, so every chunk of file i - slots was taken before any chunk of file i: a thread that
// waits for a slot waits for threads that are moving those chunks, never for one that waits.
template <typename Handle>
class FileWindow {
 public:
  explicit FileWindow(std::size_t slots) : slots_(new Slot[slots]), count_(slots) {}

  // The state of `file`, which `start(state)` sets up (chunks_left, key) when the first of its
  // chunks gets here, the rest reset (not opened, no handle, no times); null once aborted.
  template <typename Start>
  ChunkedFile<Handle>* enter(std::size_t file, const Start& start) {
    Slot& slot = slots_[file % count_];
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] {
      return aborted_ || slot.file == file ||
             (slot.done && (slot.file == kNone ? file < count_ : slot.file + count_ == file));
    });
    if (aborted_) return nullptr;
    if (slot.file != file) {
      slot.file = file;
      slot.done = false;
      ChunkedFile<Handle>& state = slot.state;
      state.open_attempted = false;
      state.handle.reset();
      state.start = 0;
      state.end = 0;
      start(state);
    }
    return &slot.state;
  }
  // Every chunk of `file` is done: its handle goes (under the state's mutex, which a thread that
  // found the open failed may hold), then its slot goes to file + slots.
  void close(std::size_t file) {
    Slot& slot = slots_[file % count_];
    {
      std::lock_guard lock(slot.state.mutex);
      slot.state.handle.reset();
    }
    {
      std::lock_guard lock(mutex_);
      slot.done = true;
    }
    changed_.notify_all();
  }
  // Runs one thread's share of the pass. When it throws, the window is aborted before the
  // exception goes on: every wait for a slot ends (a thread must not wait for a file this one
  // will never close), and enter() returns null from then on.
  template <typename Body>
  void guard(const Body& body) {
    try {
      body();
    } catch (...) {
      {
        std::lock_guard lock(mutex_);
        aborted_ = true;
      }
      changed_.notify_all();
      throw;
    }
  }

 private:
  static constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();
  struct Slot {
    ChunkedFile<Handle> state;
    std::size_t file = kNone;
    bool done = true;
  };

  std::unique_ptr<Slot[]> slots_;
  std::size_t count_;
  std::mutex mutex_;
  std::condition_variable changed_;
  bool aborted_ = false;
};

// How many files a pass of `threads` threads keeps in flight: enough that threads racing through
// small files while one moves a large one seldom wait.
inline std::size_t FilesInFlight(int threads) {
  return std::max<std::size_t>(64, 4 * static_cast<std::size_t>(threads));
}

// Appends `chunk` to `file`, whose chunks come in order: the sequential path for storage without
// random writes (storage::Capabilities::random_writes), taken by one thread. Throws InternalError
// when the file's end is not the chunk's offset.
void AppendInOrder(storage::WritableFile& file, const Chunk& chunk, const void* bytes);

// Runs `work(thread_index)` on `threads` threads (the caller's thread being thread 0) and
// rethrows the first exception any of them threw, after all have finished. `work` should stop
// early once `stop()` returns true.
class ThreadTeam {
 public:
  explicit ThreadTeam(int threads) : threads_(threads) {}
  void run(const std::function<void(int thread)>& work);
  bool stop() const;

 private:
  int threads_;
  struct State;
  State* state_ = nullptr;  // valid during Run
};

}  // namespace dlbench::checkpoint
