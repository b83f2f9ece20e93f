// Splits the files of one rank into fixed-size chunks that a pool of threads takes in order, so
// that a rank with one huge file still uses all its threads and every thread streams through a
// single reused buffer. Files are visited in plan order, so only about `threads` files are open at
// a time.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

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

class ChunkSchedule {
 public:
  ChunkSchedule(const std::vector<Bytes>& file_sizes, Bytes chunk_bytes);

  std::uint64_t size() const { return first_chunk_.back(); }
  std::uint64_t chunks_in_file(std::size_t file) const {
    return first_chunk_[file + 1] - first_chunk_[file];
  }
  Chunk at(std::uint64_t index) const;

 private:
  std::vector<Bytes> sizes_;
  std::vector<std::uint64_t> first_chunk_;  // prefix sums, one extra at the end
  Bytes chunk_bytes_;
};

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
