// What one rank measured: per-step timings grouped in blocks and epochs, and its checkpoint
// operations. The training loop fills these; au.h, throughput.h and rank_summary.h read them.
//
// Time points are Seconds on a clock shared by all ranks: metrics::Now() minus the origin from
// SynchronizedOrigin() (cross_rank.h), taken right after a barrier. steady_clock origins differ
// between hosts, so raw Now() values must not be compared across ranks.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "util/units.h"

namespace dlbench::metrics {

// One training or evaluation step (DLIO's timeline).
struct StepRecord {
  Seconds start = 0;    // DLIO's start_loading: end of the previous step (after its barrier and
                        // any checkpoint), or the block start for the first step
  Seconds end = 0;      // after the barrier (or after compute when there is no barrier)
  Seconds load = 0;     // waited for the batch to be delivered
  Seconds compute = 0;  // measured emulated compute (not the configured value), from delivery
  Seconds compute_asked = 0;  // the computation_time draw the accelerator was asked to wait
  Seconds barrier = 0;        // waited in the step barrier (the two parts below)
  Seconds barrier_skew = 0;   // of which waiting for the last rank to arrive (latest arrival over
                              // ranks minus this rank's, set after the run by ReduceBarrierSkew);
                              // the rest is the barrier's own latency
  std::uint64_t samples = 0;  // samples in this batch
  Bytes read_bytes = 0;       // bytes returned by read calls for this batch
  Bytes decoded_bytes = 0;    // bytes of its samples after decoding (the sample buffers)
  Bytes nominal_bytes = 0;    // samples x configured record length

  // DLIO's proc: from start_loading to the end of compute.
  Seconds proc() const { return load + compute; }
  // How much later than asked the emulated compute ended (the emulation's own cost).
  Seconds overshoot() const { return compute - compute_asked; }
  // The barrier's own cost: from the last rank's arrival until this rank left.
  Seconds barrier_latency() const { return barrier - barrier_skew; }
};

// A run of steps between checkpoints. Checkpoint time lies outside blocks.
struct BlockRecord {
  int number = 1;  // 1-based within the epoch (DLIO's "block<b>")
  Seconds start = 0;
  Seconds end = 0;
  std::vector<StepRecord> steps;
};

struct EpochRecord {
  int number = 1;  // 1-based
  Seconds start = 0;
  Seconds end = 0;
  std::vector<BlockRecord> blocks;
  std::optional<BlockRecord> eval;  // DLIO's "eval" block of this epoch, when evaluation ran
};

enum class CheckpointKind { kSave, kLoad };

// One checkpoint save or load on this rank.
struct CheckpointRecord {
  CheckpointKind kind = CheckpointKind::kSave;
  int epoch = 1;   // epoch the operation belongs to (1 in checkpoint-only runs)
  int number = 1;  // DLIO's <b> in "save_ckpt<b>": the block whose end triggered it, or 1..N
  Seconds start = 0;
  Seconds end = 0;  // the trainer continues (for a burst-buffer save: fast tier written)
  Bytes bytes = 0;  // bytes this rank wrote (save) or read (load)
  // Burst-buffer drain of this rank's part to the capacity tier, when there is one.
  std::optional<Seconds> drain_start;
  std::optional<Seconds> drain_end;  // last byte fsynced on the capacity tier
  Bytes drained_bytes = 0;
  // Part of [start, end) a burst-buffer save waited for room on the fast tier
  // (max_pending_checkpoints or the tier's capacity): backpressure.
  Seconds backpressure = 0;

  Seconds duration() const { return end - start; }
  // When the checkpoint is durable on its final tier.
  Seconds durable_at() const { return drain_end.value_or(end); }
};

// Everything one rank measured in a run.
struct RankRecord {
  std::vector<EpochRecord> epochs;
  std::vector<CheckpointRecord> checkpoints;  // in the order they happened
};

}  // namespace dlbench::metrics
