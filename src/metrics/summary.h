// Builders of dlbench's result files. DLIO's field names, types and units are kept where DLIO
// has the field; dlbench's own fields sit next to them with the unit in the name
// (docs/metrics.md). Builders return values; the caller writes files and prints text.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "metrics/clock.h"
#include "metrics/json_fields.h"
#include "metrics/run_metrics.h"
#include "metrics/run_reduction.h"
#include "metrics/step_record.h"

namespace dlbench::metrics {

// summary.json (rank 0).
Json BuildSummary(const RunMetrics& run);

// summary.json's header alone (DLIO's host and dataset fields, `start` to `potential_caching`):
// BuildSummary's first fields, and all a run without training or checkpoints (generation or
// staging alone) has of them.
Json BuildSummaryHeader(const RunInfo& info);

// What <rank>_output.json says about this rank's host.
struct RankHost {
  std::string hostname;
  int cpu_count = 0;
  std::string processor_name;
  double memory_GiB = 0;
  int potential_caching = 0;  // 1 when the host's RAM exceeds the data it reads
  std::map<std::string, std::string> cpuinfo;
  std::map<std::string, std::string> meminfo;
  // /proc/meminfo at the start of each epoch, by epoch number (omitted when absent).
  std::map<int, std::map<std::string, std::string>> epoch_meminfo;
};

// <rank>_output.json: per-step load/proc/compute lists and per-block AU and DLIO throughput.
Json BuildRankOutput(const RankRecord& record, const RankHost& host, const RunSettings& settings,
                     const WallClockAnchor& clock);

// <rank>_per_epoch_stats.json: start/end/duration of epochs, blocks, checkpoints and eval.
// Block, epoch and eval durations are strings with two decimals (as DLIO); checkpoint durations
// are numbers with a throughput in GiB/s of the nominal global size (DLIO's "GB/s").
Json BuildPerEpochStats(const RankRecord& record, const RunSettings& settings,
                        const WallClockAnchor& clock);

// DLIO's closing log message, starting "Averaged metric over all steps/epochs" and followed by
// the "[METRIC] ..." lines in DLIO's wording and order. Ends with a newline.
std::string MetricBlock(const RunMetrics& run);

// A readable table of the headline numbers, DLIO-compatible and dlbench's side by side.
std::string TerminalTable(const RunMetrics& run);

// Dataset generation: per rank and total bytes, files, wall time (max end - min start), MiB/s
// and files/s. Rates are omitted when the wall time is not positive.
Json BuildGenerationSummary(const GenerationMetrics& generation);
std::string GenerationTable(const GenerationMetrics& generation);

// DLIO's data_size_per_host_GB: (ranks_per_node * spf * N_t // P) * record_length / 2^30.
double DataSizePerHostGiB(int ranks_per_node, int ranks, std::uint64_t samples_per_file,
                          std::uint64_t files_train, double record_length_bytes);

}  // namespace dlbench::metrics
