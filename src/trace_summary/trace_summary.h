// `dlbench trace summary RUN_DIR`: one streaming pass over every DFTracer trace of a run folder
// (trace-<rank>-of-<ranks>.pfw[.gz]) and its Darshan counters files (<rank>_posix_counters.json.gz,
// or the plain <rank>_posix_counters.json of runs by earlier versions): per event name count, size
// statistics and total time; the wall time split into compute, I/O and overlap; read and write
// bytes per second; per rank and in total (docs/counters.md). Memory does not grow with the number
// of events (quantile_sketch.h, time_split.h); it grows with the number of ranks, event names and
// seconds of run time.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "storage/file.h"
#include "storage/io_counts.h"
#include "trace_summary/quantile_sketch.h"
#include "trace_summary/time_split.h"

namespace dlbench::trace_summary {

// One event name's figures (one rank, or all).
struct NameStats {
  std::string cat;
  std::uint64_t count = 0;
  double total_time = 0;  // Σ dur, seconds
  QuantileSketch sizes;   // bytes: `ret` of I/O calls, else `size`, else `image_size`
};

// Bytes moved per whole second of the trace clock (second = floor(ts / 10⁶)); an event's bytes
// are spread over the seconds it spans in proportion to its time in each.
using BandwidthBins = std::map<std::int64_t, std::array<double, 2>>;  // [0] read, [1] write

// MiB/s of direction 0 (read) or 1 (write) for each second from `first` to `last` (0 where `bins`
// has none).
std::vector<double> MiBPerSecond(const BandwidthBins& bins, std::int64_t first, std::int64_t last,
                                 int direction);

struct RankSummary {
  int rank = 0;
  std::vector<std::string> files;
  std::uint64_t events = 0;  // complete events
  std::map<std::string, NameStats, std::less<>> names;
  TimeSplitter splitter;  // over all of the rank's trace files
  TimeSplit split;        // splitter's result, once every file was read
  BandwidthBins bandwidth;
  bool has_counters = false;
  storage::IoCounts counters;  // totals of <rank>_posix_counters.json[.gz]
};

struct TraceSummary {
  std::filesystem::path folder;
  std::map<int, RankSummary> ranks;
  std::vector<std::string> warnings;  // incomplete traces
  std::uint64_t events = 0;
  bool has_traces = false;
  bool has_counters = false;

  // Over all ranks.
  std::map<std::string, NameStats, std::less<>> names() const;
  TimeSplit split() const;  // rank-seconds, summed over ranks
  BandwidthBins bandwidth() const;
  storage::IoCounts counters() const;
};

// The trace files (trace-*.pfw, *.pfw.gz) and counters files (<rank>_posix_counters.json.gz, and
// <rank>_posix_counters.json unless the .gz of the same name is there) of a run folder, by name;
// both empty when it holds neither. Throws Error(kIo) if it cannot be listed.
struct RunFiles {
  std::vector<std::string> traces;
  std::vector<std::string> counters;
  std::vector<std::string> run_folders;  // run-<i> subfolders: a `run --repeat` folder
};
RunFiles ListRunFiles(storage::Env& env, const std::filesystem::path& folder);

// Reads the traces and counters files of `folder`. Throws Error(kUsage) if `folder` does not
// exist, Error(kIo) if it is not a folder or holds neither, if a trace is not a DFTracer trace
// (naming the file and line), or if a counters file is not one (naming the file: a .gz that is not
// gzip, is corrupt or is cut short, JSON that is not a dlbench counters file). A trace cut short
// is summarised up to its last complete event, with a warning.
TraceSummary SummarizeRun(storage::Env& env, const std::filesystem::path& folder);

// The summary of one trace file, merged into `rank` (exposed for tests).
void SummarizeTrace(storage::Env& env, const std::string& path, RankSummary& rank,
                    std::vector<std::string>& warnings);

// The event classes of the time split: compute is category `compute`; I/O is the storage
// categories (POSIX, STDIO, MPIIO, HDF5). Reads and writes are I/O events named *read* / *write*.
bool IsComputeCategory(std::string_view cat);
bool IsIoCategory(std::string_view cat);

}  // namespace dlbench::trace_summary
