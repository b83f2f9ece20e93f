// What the insight rules look at: plain values rank 0 already holds at the end of a run (the
// reduced results, the reduced POSIX counters, a few settings), gathered once by
// FactsFromSummary (facts_from_summary.h) so that every rule is a pure function of this struct
// and is tested on injected values. A fact that was not measured is nullopt or empty, and the
// rules that need it stay silent.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dlbench::insights {

// One file every rank accessed (Darshan's shared record, rank −1), from posix_counters.top_files.
struct SharedFileFacts {
  std::string path;
  std::uint64_t accesses = 0;        // reads + writes, all ranks
  std::uint64_t small_accesses = 0;  // of them, of at most kSmallAccessBytes
  double bytes = 0;                  // read + written
};

// From the trace, when the run was traced (summary.json trace.event_totals), summed over ranks:
// the reader threads' time on samples (data/item: open, reads, preprocessing) and, within it, on
// the emulated preprocessing (data/preprocess). With profiling.trace_sample N the trace keeps the
// events of 1 sample in N: these are the kept samples' times.
struct TraceFacts {
  double item_seconds = 0;
  double preprocess_seconds = 0;
  std::uint64_t sample = 1;  // profiling.trace_sample
};

// Object storage (GET/PUT requests): dormant until summary.json carries these.
struct ObjectStoreFacts {
  std::uint64_t requests = 0;
  std::uint64_t retries = 0;      // requests sent again (throttling, 503 SlowDown, timeouts)
  double request_seconds = 0;     // Σ over requests of request start .. last byte
  double first_byte_seconds = 0;  // Σ over requests of request start .. first byte
};

struct RunFacts {
  int ranks = 1;

  // Training, per epoch (mean over ranks, as summary.json's metric lists).
  std::vector<double> train_au_percent;
  std::vector<double> train_load_loss_points;  // AU points lost to load waits
  // Load waits of the measured steps (not the first batch's: it holds the reader pool's start in
  // every epoch, and a first epoch's start-up is noise here).
  std::vector<double> train_load_seconds;
  std::optional<double> train_read_seconds;  // the blocks' window
  std::optional<double> eval_read_seconds;

  // POSIX counters, all ranks, all phases.
  std::optional<std::uint64_t> reads;
  std::uint64_t small_reads = 0;  // reads of at most kSmallAccessBytes (Darshan's buckets)
  double bytes_read = 0;
  double read_time_seconds = 0;
  double write_time_seconds = 0;
  double meta_time_seconds = 0;
  std::vector<double> read_time_per_rank_seconds;  // index: rank
  std::vector<SharedFileFacts> shared_files;

  // Page cache: every host's RAM holds its share of the data (summary.json potential_caching),
  // and whether the run kept the cache out (summary.json page_cache: reader.drop_caches,
  // reader.odirect).
  bool page_cache_possible = false;
  bool cache_bypassed = false;
  bool staged = false;  // training read a staged copy (workflow.stage)
  // The workload's storage is an object store (summary.json storage_type s3): the counters'
  // close time of a written file holds its upload (a PUT, or the last part and the completion).
  bool object_storage = false;

  // Checkpoints (saves).
  std::uint64_t saves = 0;
  std::optional<double> checkpoint_stall_seconds;  // training runs: max over ranks
  std::optional<double> stall_mean_seconds;        // mean over saves of the slowest rank's save
  std::optional<double> time_to_durable_mean_seconds;
  bool drained = false;  // a burst buffer drained the saves
  double backpressure_total_seconds = 0;
  std::optional<int> burst_buffer_slots;  // checkpoint.burst_buffer.max_pending_checkpoints

  std::optional<ObjectStoreFacts> object_store;
  std::optional<TraceFacts> trace;
  // reader.read_threads per rank: set by the run (summary.json does not hold it).
  std::optional<int> read_threads;
};

}  // namespace dlbench::insights
