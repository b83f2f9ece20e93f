// How the reader pool reads (the reader section of the configuration, resolved).
#pragma once

#include <cstddef>
#include <cstdint>

#include "config/distribution.h"
#include "config/enums.h"
#include "util/units.h"

namespace dlbench::pipeline {

struct ReaderPoolOptions {
  // reader.read_threads: threads per rank reading batches; 0 reads on the trainer's thread when
  // it asks for a batch (no overlap with compute, as PyTorch with num_workers = 0).
  int threads = 1;
  // reader.prefetch_size: batches read ahead. The queue holds max(prefetch, threads, 1) batches
  // in flight (being read or ready), so that no thread idles by construction, and never more
  // than the epoch's steps (ReaderPool); PyTorch's equivalent is workers × ceil(prefetch /
  // workers).
  int prefetch = 2;
  // on_demand: open, read and close the file for every sample (DLIO's on_demand; formats with a
  // header or index re-read it each time). memory: keep files open per thread (an LRU of
  // `open_files` files), so a file's header is read once while its samples are consumed.
  config::ReadType read_type = config::ReadType::kOnDemand;
  std::size_t open_files = 4;
  // fail: the first I/O error stops the pool and is rethrown to the trainer (exit 3). skip: the
  // sample is counted in Batch::samples_failed and reading goes on.
  config::OnError on_error = config::OnError::kFail;
  // reader.thread_policy, applied by each reader thread to itself (thread_policy.h).
  config::ThreadPolicy thread_policy = config::ThreadPolicy::kBatch;
  // reader.preprocess_time: slept per sample in the reader thread after reading it. A plain
  // sleep (as DLIO's time.sleep), not the spinning accelerator wait: many reader threads
  // spinning would take the cores the reads need.
  config::TimeDistribution preprocess_time;
  // Key of the preprocess-time draws: (seed, rank, stream, epoch, step), so they do not depend
  // on which thread reads which batch. `stream` separates training from evaluation.
  std::uint64_t seed = 123;
  Rank rank = 0;
  std::uint64_t stream = 0;

  std::size_t queue_capacity() const {
    std::size_t c = 1;
    if (prefetch > 0 && static_cast<std::size_t>(prefetch) > c)
      c = static_cast<std::size_t>(prefetch);
    if (threads > 0 && static_cast<std::size_t>(threads) > c) c = static_cast<std::size_t>(threads);
    return c;
  }
};

}  // namespace dlbench::pipeline
