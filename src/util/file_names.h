// The names of the files dlbench writes and looks for, in one place: a result file's name is what
// `compare`, `report` and `trace summary` find a run by, and a marker's name is what a rerun, the
// folder claim and the drain trust. Callers join these names to their folders; only the names
// live here. (Partial files' names, storage::PartialPathFor, belong to the storage layer, and a
// checkpoint's data files are named as Megatron-DeepSpeed names them: checkpoint/file_names.h.)
#pragma once

#include <string>
#include <string_view>

namespace dlbench::file_names {

// A run's output folder.
inline constexpr const char* kSummary = "summary.json";      // the run's results, rank 0
inline constexpr const char* kAggregate = "aggregate.json";  // --repeat's aggregate of runs
inline constexpr const char* kSweep = "sweep.json";          // a sweep's grid and runs
inline constexpr const char* kRankOutput = "_output.json";   // <rank>_output.json
inline constexpr const char* kRankEpochStats = "_per_epoch_stats.json";
// <rank>_posix_counters.json.gz: the rank's Darshan counters, gzip'd JSON. Runs before it wrote
// them plain, as <rank>_posix_counters.json: `trace summary` still reads that name, and a rerun
// into the folder removes it.
inline constexpr const char* kRankCounters = "_posix_counters.json.gz";
inline constexpr const char* kRankCountersPlain = "_posix_counters.json";
// trace-<rank>-of-<ranks>.pfw.gz, written by --trace; `trace summary` also reads uncompressed .pfw.
inline constexpr const char* kTracePrefix = "trace-";
inline constexpr std::string_view kTraceSuffixes[] = {".pfw", ".pfw.gz"};

// "<rank><suffix>" for the per-rank result files above: RankFile(3, kRankOutput) is
// "3_output.json".
inline std::string RankFile(int rank, const char* suffix) { return std::to_string(rank) + suffix; }
inline std::string TraceFile(int rank, int ranks) {
  return kTracePrefix + std::to_string(rank) + "-of-" + std::to_string(ranks) +
         std::string(kTraceSuffixes[1]);
}

// Markers. The folder claim's marker in every folder dlbench created; generation's record of a
// complete dataset in its data folder; a checkpoint folder's manifest; the drain's per-rank
// records in the burst-buffer tier (each followed by the rank's number).
inline constexpr const char* kFolderMarker = ".dlbench-folder";
inline constexpr const char* kDatasetMarker = ".dlbench-dataset.json";
inline constexpr const char* kCheckpointManifest = "dlbench_checkpoint_manifest.json";
inline constexpr const char* kDrainedPrefix = ".dlbench_drained_rank";
inline constexpr const char* kDrainFailedPrefix = ".dlbench_drain_failed_rank";
inline constexpr const char* kDrainContentPrefix = ".dlbench_drain_content_rank";
// In a burst buffer's tier folder: <tier>/.dlbench-spare/<rank>/ holds the rank's spare files.
inline constexpr const char* kSpareFolder = ".dlbench-spare";

}  // namespace dlbench::file_names
