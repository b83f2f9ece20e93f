// The I/O section of a run in `dlbench report`: Darshan's access-size histograms (read and write,
// the ten POSIX_SIZE_* buckets) from summary.json's `posix_counters.totals`, and read and write
// bandwidth per second, per rank and over all ranks, from the run's DFTracer traces
// (trace_summary's streaming reader: SummarizeRun's per-second bins). A run without counters or
// without a trace gets a note saying so instead of the chart.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "compare/run_set.h"
#include "report/svg_charts.h"
#include "storage/file.h"
#include "storage/io_counts.h"

namespace dlbench::report {

// At most this many points per bandwidth line: longer runs get wider bins (whole seconds).
inline constexpr std::size_t kMaxBandwidthPoints = 300;

struct IoData {
  bool has_counters = false;  // summary.json has posix_counters.totals
  std::array<std::uint64_t, storage::kSizeBuckets> size_read{}, size_write{};
  bool has_trace = false;  // the run folder holds trace-*.pfw[.gz]
  double bin_seconds = 1;  // width of a bandwidth bin
  // MiB/s per bin (x: seconds since the first traced second): "all ranks", then "rank r" while
  // there are at most kMaxRankLines ranks.
  std::vector<Series> read, write;
  std::vector<std::string> notes;  // incomplete traces, ranks not drawn
};
inline constexpr std::size_t kMaxRankLines = 7;

// Reads the run's counters (from its summary) and its traces (through `env`, from the folder of
// its summary.json). A trace that is not a DFTracer trace throws trace_summary's Error(kIo).
IoData LoadIoData(storage::Env& env, const compare::Run& run);

// The charts (figures) and notes of `data`, as HTML.
std::string IoCharts(const IoData& data);

}  // namespace dlbench::report
