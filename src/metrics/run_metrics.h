// Plain values the result-file builders turn into JSON (summary.h). The workflow fills them,
// mostly through ReduceRun (run_reduction.h); everything here is already reduced over ranks.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "metrics/cross_rank.h"
#include "metrics/percentiles.h"
#include "metrics/step_breakdown.h"
#include "util/units.h"

namespace dlbench::metrics {

// summary.json's header, in DLIO's names and units.
struct RunInfo {
  std::string start;  // RFC 3339 timestamps
  std::string end;
  int num_accelerators = 1;
  int num_hosts = 1;
  std::string hostname;  // rank 0's host
  std::uint64_t num_files_train = 0;
  std::uint64_t num_files_eval = 0;
  std::uint64_t num_samples_per_file = 0;
  std::vector<int> host_cpu_count;  // per host
  std::string host_processor_name;
  std::vector<double> host_memory_GiB;  // per host
  std::map<std::string, std::string> host_cpuinfo;
  std::map<std::string, std::string> host_meminfo;
  double data_size_per_host_GiB = 0;
  std::vector<int> potential_caching;  // per host, 1 when the host's RAM exceeds its data
  // storage.storage_type ("local_fs", "s3", ...), and storage.storage_library as written (MLPerf
  // Storage's S3 library: recorded, while dlbench always uses its own client); empty: not given.
  std::string storage_type;
  std::string storage_library;
};

// One epoch of training (or its evaluation), reduced over ranks.
struct PhaseEpoch {
  int epoch = 1;
  double au_percent = 0;  // mean over ranks (DLIO)
  double au_min_percent = 0;
  double au_max_percent = 0;
  double dlio_samples_per_second = 0;              // sum over ranks, DLIO's definition
  std::optional<double> exact_samples_per_second;  // sum over ranks, dlbench's definition
  Bytes read_bytes = 0;                            // returned by read calls, all ranks
  Bytes nominal_bytes = 0;                         // samples x record length, all ranks
  Bytes decoded_bytes = 0;                         // of the samples read, decoded, all ranks
  std::vector<Span> read_spans;                    // per block: min start .. max end over ranks
  StepBreakdown breakdown;                         // mean over ranks
};

struct PhaseMetrics {
  std::vector<PhaseEpoch> epochs;
  std::optional<Percentiles> sample_read_latency;  // all ranks, from LatencyHistogram
  std::optional<Percentiles> batch_wait;           // per-step load time, all ranks
};

// One checkpoint save or load, reduced over ranks.
struct CheckpointOp {
  int epoch = 1;
  int number = 1;
  CheckpointOpReduction io;    // trainer-visible part: start .. end of the operation
  Seconds rank0_duration = 0;  // DLIO reports rank 0's own values only (D12)
  // Burst-buffer saves only: span of the drain over ranks and the bytes drained.
  std::optional<Span> drain;
  Bytes drained_bytes = 0;
  Seconds time_to_durable = 0;  // max over ranks of durable_at - min over ranks of start
  Seconds backpressure = 0;     // max over ranks of the wait for room on the fast tier
};

struct CheckpointMetrics {
  double nominal_size_GiB = 0;  // DLIO's checkpoint_size_GB (GiB, global)
  std::vector<CheckpointOp> saves;
  std::vector<CheckpointOp> loads;
};

struct RunMetrics {
  RunInfo info;
  double au_expectation = 0.90;       // metric.au, a fraction
  double record_length_bytes = 0;     // nominal, for DLIO's MB/s fields
  std::optional<PhaseMetrics> train;  // absent when no training ran
  std::optional<PhaseMetrics> eval;
  std::optional<CheckpointMetrics> checkpoint;  // absent when no checkpoint was saved or loaded
};

// Dataset generation, per rank and in total.
struct GenerationRank {
  Seconds start = 0;
  Seconds end = 0;
  Bytes bytes = 0;
  std::uint64_t files = 0;
};
struct GenerationMetrics {
  std::vector<GenerationRank> ranks;  // in rank order
};

}  // namespace dlbench::metrics
