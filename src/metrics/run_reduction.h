// From what each rank measured (RankRecord) to the reduced RunMetrics that rank 0 writes.
// Split in three so that the arithmetic is testable without MPI:
//   SummarizeRank (per rank, pure) -> gathered over ranks -> Combine* (pure, all ranks' values).
// ReduceRun does the gathering through the communicator.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "metrics/au.h"
#include "metrics/percentiles.h"
#include "metrics/run_metrics.h"
#include "metrics/step_breakdown.h"
#include "metrics/step_record.h"
#include "mpi/communicator.h"

namespace dlbench::metrics {

struct RunSettings {
  std::uint64_t steps_per_epoch = 0;       // K
  std::uint64_t eval_steps_per_epoch = 0;  // K_eval
  std::uint64_t batch_size = 1;
  std::uint64_t eval_batch_size = 1;
  Exclusion exclusion;
  double checkpoint_size_GiB = 0;  // nominal global size, for DLIO/MLPerf's throughput
};

// One rank's values, small enough to gather.
struct RankValues {
  struct Block {
    Seconds start = 0;
    Seconds end = 0;
    Bytes read_bytes = 0;
    Bytes nominal_bytes = 0;
    Bytes decoded_bytes = 0;
  };
  struct Phase {  // one epoch's training, or its evaluation
    double au_percent = 0;
    double dlio_samples_per_second = 0;
    std::optional<double> exact_samples_per_second;
    std::vector<Block> blocks;
    StepBreakdown breakdown;
  };
  struct Epoch {
    int number = 1;
    Phase train;
    std::optional<Phase> eval;
  };
  std::vector<Epoch> epochs;
  std::vector<CheckpointRecord> checkpoints;
};

RankValues SummarizeRank(const RankRecord& record, const RunSettings& settings);

// Histograms of per-step load times (batch waits) of one rank.
LatencyHistogram TrainBatchWaits(const RankRecord& record);
LatencyHistogram EvalBatchWaits(const RankRecord& record);

// `ranks[r]` is rank r's values. All ranks must have recorded the same epochs, blocks and
// checkpoint sequence (throws dlbench::Error, internal, otherwise). nullopt when the phase did
// not run. Histograms are the merged ones of all ranks.
std::optional<PhaseMetrics> CombineTrain(const std::vector<RankValues>& ranks,
                                         const LatencyHistogram& sample_read,
                                         const LatencyHistogram& batch_wait);
std::optional<PhaseMetrics> CombineEval(const std::vector<RankValues>& ranks,
                                        const LatencyHistogram& sample_read,
                                        const LatencyHistogram& batch_wait);
std::optional<CheckpointMetrics> CombineCheckpoints(const std::vector<RankValues>& ranks,
                                                    double nominal_size_GiB);

// Per-sample read latencies of one rank (merged over its reader threads).
struct RankLatencies {
  LatencyHistogram train_sample_read;
  LatencyHistogram eval_sample_read;
};

// Collective: every rank calls it; every rank gets the same result (rank 0 writes it).
// `info`, `au_expectation` and `record_length_bytes` are copied into the result as given.
RunMetrics ReduceRun(const mpi::Communicator& comm, const RankRecord& record,
                     const RankLatencies& latencies, const RunSettings& settings, RunInfo info,
                     double au_expectation, double record_length_bytes);

// Collective: gathers every rank's generation record.
GenerationMetrics ReduceGeneration(const mpi::Communicator& comm, const GenerationRank& mine);

}  // namespace dlbench::metrics
