// The step loop of one rank: per epoch, per step, wait for the batch ("load"),
// emulate the accelerator (a computation_time draw, measured from the batch's delivery, with the
// host's bookkeeping overlapping it), wait at the step barrier, and
// record a metrics::StepRecord; then evaluation when due. The trainer knows neither MPI nor file
// formats nor checkpoints: the barrier, cache dropping, checkpoints and progress output are
// hooks the workflow supplies.
//
// Timeline of a block (DLIO's, with its extra fetch removed, D25): the block starts, the reader
// pool starts, step k's start is step k−1's end (after its barrier), and the block ends right
// after the last step's barrier. The pool reads exactly the epoch's K batches, so nothing is
// fetched after the last step. When `pause_after_step` asks for it (a step-mode checkpoint), the
// block ends after that step, `between_blocks` runs outside any block, and a new block starts;
// the reader threads keep prefetching meanwhile, as DLIO's loader workers do.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "config/distribution.h"
#include "metrics/step_record.h"
#include "pipeline/batch.h"
#include "pipeline/reader_pool_options.h"
#include "pipeline/reader_threads.h"
#include "pipeline/sample_buffers.h"
#include "pipeline/sample_source.h"
#include "pipeline/sampler.h"
#include "pipeline/time_sampler.h"
#include "util/units.h"

namespace dlbench::pipeline {

// How the trainer waits at the step barrier. Spinning costs a whole core for up to kSpin, and
// every poll a wake-up: CPU that the rank's reader threads (and, on a shared node, the other
// ranks') need. So the trainer spins only when it pays:
// - the reader threads are behind (the next batch is not read yet): it will wait for them
//   anyway; no spin, slow polls (kPollBehind);
// - the rank's reader threads are reading and the node has no core to spare for a spin
//   (TrainerOptions::spare_core): the spin, and every wake-up of a fast poll, would preempt a
//   reader; no spin, slow polls (kPollBehind) — the batches already read cover the delay. At
//   computation 0 with 2 ranks on 2 cores the trainers' spins and 20 µs polls took about as much
//   CPU as the reads themselves (results/read.md);
// - the previous step's barrier outlasted the spin (a rank arriving that much later, e.g. one
//   whose readers are slower at computation 0): spinning again would most likely end before the
//   last rank arrives, so it would buy no latency; no spin, fast polls (kPoll);
// - else: spin, then fast polls (20 ms steps: the ranks arrive within tens of microseconds).
// When every rank is on one node the barrier sleeps on a futex that the last rank wakes
// (mpi::StepBarrier): the spin rules hold, the poll interval is not used.
struct BarrierWait {
  static constexpr Seconds kSpin = 100e-6;
  static constexpr Seconds kPoll = 20e-6;
  static constexpr Seconds kPollBehind = 200e-6;
  Seconds spin = 0;
  Seconds poll = kPoll;
  // `readers_need_the_cores`: a reader thread is reading and the node has no spare core.
  static BarrierWait For(bool readers_behind, Seconds previous_barrier,
                         bool readers_need_the_cores = false);
};

struct TrainerOptions {
  int epochs = 1;                             // train.epochs
  config::TimeDistribution computation_time;  // train.computation_time, per step
  bool step_barrier = true;                   // train.step_barrier: call hooks.barrier per step
  // Whether this node has a core for each thread of its ranks (ranks on the node × (reader
  // threads + trainer) ≤ cores), so that the barrier's spin takes no core a reader needs
  // (BarrierWait). The workflow sets it (SpareCoreForTrainer); false assumes a full node.
  bool spare_core = false;
  // Evaluation (workflow.evaluation): after epoch e when e ≥ eval_after_epoch and
  // (e − eval_after_epoch) is a multiple of epochs_between_evals; eval_time per eval step, no
  // barrier, the eval sampler's batch size (reader.batch_size_eval).
  bool evaluation = false;
  config::TimeDistribution eval_time;
  int eval_after_epoch = 1;
  int epochs_between_evals = 1;
  // Keys of the time draws: (seed, rank, purpose).
  std::uint64_t seed = 123;
  Rank rank = 0;
  // StepRecord::nominal_bytes = samples × this (dataset.record_length_bytes, DLIO's sizes).
  Bytes nominal_sample_bytes = 0;
  // Recorded time points are metrics::Now() − origin (cross_rank.h's synchronized origin).
  Seconds origin = 0;
  ReaderPoolOptions reader;  // the eval pass uses it too, with its own preprocess stream
};

// Where the workflow plugs in. Every hook is optional.
struct TrainerHooks {
  // The per-step barrier across ranks (train.step_barrier): Communicator::step_barrier, which
  // spins for `spin` seconds, then sleeps `poll` seconds between tests (BarrierWait says which).
  // How much of the wait was for the last rank is learnt after the run
  // (metrics::ReduceBarrierSkew), so the barrier itself carries no data.
  std::function<void(Seconds spin, Seconds poll)> barrier;
  // Before each epoch, outside its timing (reader.drop_caches between epochs).
  std::function<void(int epoch)> before_epoch;
  // After each training step (`steps_done` ≥ 1 steps of `epoch` completed, barrier included):
  // true ends the block here and runs between_blocks outside it (step-mode checkpoints).
  std::function<bool(int epoch, std::uint64_t steps_done)> pause_after_step;
  std::function<void(int epoch, std::uint64_t steps_done)> between_blocks;
  // After an epoch's training blocks, outside them, before evaluation (epoch-mode checkpoints).
  std::function<void(int epoch)> after_epoch;
  // Each delivered batch, between "load" and "compute" (latency histograms, tracing). Keep cheap.
  std::function<void(const Batch&)> on_batch;
  // After each step (rank 0 prints; the trainer never does).
  struct Progress {
    bool eval = false;
    int epoch = 1;
    std::uint64_t step = 0;   // steps done in this epoch (or eval pass)
    std::uint64_t steps = 0;  // of how many
  };
  std::function<void(const Progress&)> progress;
};

// What the reads of the whole run amounted to, on this rank.
struct ReadTotals {
  std::uint64_t samples_read = 0;
  std::uint64_t samples_failed = 0;  // skipped (reader.on_error: skip)
  Bytes bytes_read = 0;
  std::string first_error;  // of the first skipped sample
};

class Trainer {
 public:
  // `eval_source` / `eval_sampler` may be null when options.evaluation is false. Everything
  // passed must outlive the trainer. Throws Error(kUsage) for invalid time distributions.
  Trainer(SampleSource& train_source, const Sampler& train_sampler, SampleSource* eval_source,
          const Sampler* eval_sampler, const TrainerOptions& options, TrainerHooks hooks = {});

  // Runs every epoch and appends one EpochRecord per epoch to `record`. Rethrows a reader's
  // error (on_error: fail) after stopping the reader threads.
  void run(metrics::RankRecord& record);

  const ReadTotals& totals() const { return totals_; }

  // Whether evaluation runs after `epoch`.
  bool evaluates_after(int epoch) const;

 private:
  void train_epoch(int epoch, metrics::EpochRecord& record);
  void evaluate(int epoch, metrics::EpochRecord& record);
  // One step: load, compute, barrier, starting at `start`.
  template <typename Pool>
  metrics::StepRecord step(Pool& pool, TimeSampler& compute, bool barrier, Seconds start);
  Seconds now() const;
  // `t` in the records' time base (as now()).
  Seconds since_origin(std::chrono::steady_clock::time_point t) const;

  SampleSource& train_source_;
  const Sampler& train_sampler_;
  SampleSource* eval_source_;
  const Sampler* eval_sampler_;
  TrainerOptions options_;
  ReaderPoolOptions eval_reader_;
  TrainerHooks hooks_;
  TimeSampler compute_time_;  // one stream for the whole run
  std::optional<TimeSampler> eval_time_;
  ReadTotals totals_;
  Seconds previous_barrier_ = 0;  // the last training step's barrier wait (BarrierWait::For)
  // Sample buffers of the reader threads, kept across epochs (train and eval take turns).
  SampleBuffers buffers_;
  // The reader threads, kept across epochs likewise (null with reader.read_threads 0).
  std::unique_ptr<ReaderThreads> readers_;
};

}  // namespace dlbench::pipeline
