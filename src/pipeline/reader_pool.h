// The reads of one rank for one epoch (or one evaluation pass): `threads` reader threads take
// the next unread step, ask the sampler for its samples, read them (BatchReader) into a free slot
// of the prefetch queue, and the consumer takes the batches strictly in step order. Exactly
// `steps` batches are read — never one more — so nothing is fetched after the last step
// (DLIO fetches one batch beyond the step cap inside the timed block, defect D25).
//
// With threads == 0 nothing runs in the background: next() reads the batch on the caller's
// thread. On a read error in fail mode, next() for that step stops the pool (outstanding reads
// finish their current batch, no thread is left waiting) and rethrows the error; batches of
// earlier steps are delivered normally first.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

#include "pipeline/batch.h"
#include "pipeline/batch_reader.h"
#include "pipeline/prefetch_queue.h"
#include "pipeline/reader_pool_options.h"
#include "pipeline/reader_threads.h"
#include "pipeline/sample_buffers.h"
#include "pipeline/sample_source.h"
#include "pipeline/sampler.h"

namespace dlbench::pipeline {

class ReaderPool {
 public:
  // Starts reading right away. `steps` ≤ sampler.steps_per_epoch() (the workflow may stop
  // earlier); `source`, `sampler` and `options` must outlive the pool.
  // `buffers` (at least max(options.threads, 1) of them) and `threads` (at least options.threads,
  // idle) are the run's, reused across epochs; null: the pool makes its own.
  ReaderPool(SampleSource& source, const Sampler& sampler, const EpochOrder& order,
             std::uint64_t steps, const ReaderPoolOptions& options,
             SampleBuffers* buffers = nullptr, ReaderThreads* threads = nullptr);
  ~ReaderPool();
  ReaderPool(const ReaderPool&) = delete;
  ReaderPool& operator=(const ReaderPool&) = delete;

  std::uint64_t steps() const { return steps_; }

  // The batch of the next step (0, 1, ... in order), waiting for it. Valid until release().
  // Throws the reader's error (fail mode), or Error(kInternal) when called after the last step
  // or after stop().
  const Batch& next();
  // As next(), but returns nullptr when no batch arrived within `timeout` (threads > 0 only;
  // tests use it so that a bug cannot hang them).
  const Batch* next_for(std::chrono::nanoseconds timeout);
  // Gives the batch returned by next() back, so its slot can carry a later step.
  void release();
  // Whether the reader threads are behind the consumer: a next step exists and its batch is not
  // read yet, so next() will wait for it. (False without threads: next() reads it itself.)
  bool behind() const;
  // Whether a reader thread is reading a batch now (so it needs a core). False without threads.
  bool reading() const;

  // Stops the threads' reading (after their current batch) and waits until each has returned
  // from it. Idempotent.
  void stop();

 private:
  const Batch* next_until(std::optional<std::chrono::steady_clock::time_point> deadline);
  void fill(Batch& batch, std::uint64_t step);
  void run_thread(std::size_t index);
  // The steps [first, end) a thread takes on at once: one step, or in file-major (streaming)
  // order the run of steps that continue the file the first one ends in, so that one thread
  // streams each file from its first record to its last, as tf.data's interleave hands each
  // file to one reader (two threads would each stream the file's prefix again).
  std::pair<std::uint64_t, std::uint64_t> claim();
  bool continues_previous_step(std::uint64_t step) const;

  SampleSource& source_;
  const Sampler& sampler_;
  EpochOrder order_;
  std::uint64_t steps_;
  const ReaderPoolOptions& options_;
  PrefetchQueue<Batch> queue_;
  std::mutex claim_mutex_;
  std::uint64_t next_claim_ = 0;  // guarded by claim_mutex_
  std::atomic<bool> stopping_{false};
  std::unique_ptr<ReaderThreads> own_threads_;  // when none were lent
  ReaderThreads* threads_ = nullptr;            // null: threads == 0
  bool running_ = false;                        // the threads run this pool's reads
  std::unique_ptr<SampleBuffers> own_buffers_;  // when none were lent
  SampleBuffers& buffers_;
  std::optional<BatchReader> inline_reader_;  // threads == 0
  std::uint64_t next_take_ = 0;
  bool holding_ = false;
};

}  // namespace dlbench::pipeline
