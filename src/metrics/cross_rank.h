// Reductions across ranks: pure cores over per-rank vectors, testable
// without MPI, and thin wrappers that gather through an mpi::Communicator. Every wrapper is a
// collective: all ranks must call it, in the same order, with same-shaped arguments.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "metrics/percentiles.h"
#include "metrics/step_record.h"
#include "mpi/communicator.h"
#include "util/units.h"

namespace dlbench::metrics {

// ---- pure cores ----

struct Span {
  Seconds start = 0;  // min over ranks
  Seconds end = 0;    // max over ranks
  Seconds duration() const { return end - start; }
};
// Throws dlbench::Error (internal) when the vectors are empty or of different lengths.
Span SpanOf(const std::vector<Seconds>& starts, const std::vector<Seconds>& ends);
// The time covered by at least one of `spans` (any order): their sum when none overlap, and each
// moment once when they do (blocks of ranks that drift apart without the step barrier).
Seconds CoveredSeconds(std::vector<Span> spans);

struct Spread {
  double min = 0;
  double mean = 0;
  double max = 0;
};
// nullopt for an empty vector.
std::optional<Spread> SpreadOf(const std::vector<double>& values);

// One checkpoint save or load, reduced over ranks.
struct CheckpointOpReduction {
  Seconds duration_max = 0;  // max over ranks of the rank's duration (MLPerf)
  Seconds span = 0;          // max end - min start
  Spread rank_duration;      // per-rank distribution of durations
  Bytes total_bytes = 0;     // sum over ranks
  // MLPerf / DLIO per-rank throughput is the nominal global size over the rank's duration;
  // MLPerf's reported value is the minimum over ranks. nullopt when a duration is not positive.
  std::optional<double> throughput_min_GiB_per_second;
  // dlbench: total bytes actually moved / duration_max.
  std::optional<double> GiB_per_second;
};
CheckpointOpReduction ReduceCheckpointOp(const std::vector<Seconds>& starts,
                                         const std::vector<Seconds>& ends,
                                         const std::vector<Bytes>& bytes, double nominal_size_GiB);

// The origin of rank `rank` given every rank's clock id (0: unknown) and its Now() right after a
// common barrier: ranks whose steady clocks are one clock (same id) take the exit time of the
// lowest such rank, so their times compare exactly; a rank with id 0 takes its own.
Seconds OriginAmong(std::size_t rank, const std::vector<std::uint64_t>& clock_ids,
                    const std::vector<Seconds>& barrier_exits);

// The training steps' arrival times at the step barrier (end − barrier), epoch by epoch, block by
// block, in step order (evaluation has no barrier).
std::vector<Seconds> BarrierArrivals(const RankRecord& record);
// Splits every training step's barrier wait: barrier_skew = the latest arrival over ranks
// (`last_arrivals`, in BarrierArrivals' order) minus this rank's, within [0, barrier]. Throws
// dlbench::Error (internal) when the lengths differ.
void SetBarrierSkew(RankRecord& record, const std::vector<Seconds>& last_arrivals);

// ---- MPI wrappers ----

// A time origin common to all ranks. Subtract it from Now() to get times that can be compared
// across ranks. Ranks on one kernel (same /proc/sys/kernel/random/boot_id, so one
// CLOCK_MONOTONIC, containers included) share one origin exactly; across kernels (steady_clock
// origins differ between hosts) the origin is Now() right after a barrier, and the error is the
// barrier's exit skew (which reached hundreds of microseconds on a loaded 2-vCPU node — too much
// to tell, per step, when the last rank reached the step barrier).
Seconds SynchronizedOrigin(const mpi::Communicator& comm);

// SetBarrierSkew with the latest arrivals over ranks (one element-wise maximum after the run, so
// the step barrier itself stays a plain barrier). The ranks must have recorded the same training
// steps (the step barrier keeps them in lockstep); throws dlbench::Error (internal) otherwise.
void ReduceBarrierSkew(const mpi::Communicator& comm, RankRecord& record);

Span ReduceSpan(const mpi::Communicator& comm, Seconds start, Seconds end);
Spread ReduceSpread(const mpi::Communicator& comm, double value);
CheckpointOpReduction ReduceCheckpointOp(const mpi::Communicator& comm, Seconds start, Seconds end,
                                         Bytes bytes, double nominal_size_GiB);

// Every rank's vector, concatenated in rank order, on every rank. All ranks must pass vectors
// of the same length (throws dlbench::Error, internal, on every rank otherwise).
std::vector<double> GatherEqualLength(const mpi::Communicator& comm,
                                      const std::vector<double>& values);
std::vector<std::uint64_t> GatherEqualLength(const mpi::Communicator& comm,
                                             const std::vector<std::uint64_t>& values);

// The sum of every rank's histogram, on every rank.
LatencyHistogram ReduceHistogram(const mpi::Communicator& comm, const LatencyHistogram& mine);

}  // namespace dlbench::metrics
