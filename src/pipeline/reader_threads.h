// The reader threads of a run, kept from one epoch (or evaluation pass) to the next, as DLIO's
// PyTorch loader keeps its workers (persistent_workers): each pass's
// ReaderPool hands every thread its loop and waits for all of them to return before it ends, and
// no thread is started or joined between passes. Starting them afresh every epoch left both ranks
// without a reader for ~0.17 ms per epoch boundary (perf, 2 ranks, 8,192 × 4 KiB npy, 26 ms
// epochs) and dropped each thread's warm state (its file spec, the counters' last record).
//
// One pass at a time: start(), then wait() before the next start() or the destruction. Used by the
// trainer's thread only; the threads themselves only run the work they are given.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace dlbench::pipeline {

class ReaderThreads {
 public:
  // Starts `count` ≥ 1 threads, which wait for work. Throws Error(kUsage) naming
  // reader.read_threads when the system refuses one (its limit on threads or on their stacks'
  // memory: the value is too large for this machine), after ending those already started.
  explicit ReaderThreads(int count);
  ~ReaderThreads();  // waits for the current pass, then ends and joins the threads
  ReaderThreads(const ReaderThreads&) = delete;
  ReaderThreads& operator=(const ReaderThreads&) = delete;

  std::size_t size() const { return threads_.size(); }

  // Runs work(i) on thread i for every i < count (≤ size()) and returns at once. `work` must
  // not throw (a reader records its errors in its batches).
  void start(std::size_t count, std::function<void(std::size_t)> work);
  // Returns once every thread of the pass has returned from its work. Idempotent.
  void wait();

 private:
  void run(std::size_t index);
  void end();  // ends and joins the threads

  std::mutex mutex_;
  std::condition_variable work_ready_;
  std::condition_variable work_done_;
  // Guarded by mutex_. `work_` is not changed while a pass runs, so the threads call it unlocked.
  std::function<void(std::size_t)> work_;
  std::size_t count_ = 0;     // threads taking part in the pass
  std::size_t busy_ = 0;      // of them, those still in work_
  std::uint64_t passes_ = 0;  // start() calls so far
  bool ending_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace dlbench::pipeline
