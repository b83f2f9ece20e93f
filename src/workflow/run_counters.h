// The run's Darshan POSIX counters (docs/counters.md): every rank writes
// <rank>_posix_counters.json.gz (its per-file records and totals, gzip'd JSON), and rank 0 reduces
// all ranks' records as Darshan does (shared files to one record) into summary.json:
// `posix_counters` (totals, top files, file counts) and Darshan's I/O rate by slowest rank in
// `metric`, beside dlbench's read rates.
#pragma once

#include <string>
#include <vector>

#include "config/config.h"
#include "mpi/communicator.h"
#include "storage/counting_env.h"
#include "storage/counts_wire.h"
#include "workflow/run_results.h"

namespace dlbench::workflow {

// The folders whose files are checkpoints: checkpoint.checkpoint_folder and, with a burst
// buffer, its tier's path — unless that tier is also stage.to's, whose staged dataset it holds.
std::vector<std::string> CheckpointFolders(const config::Config& config);
// The folder of `folders` (CheckpointFolders) that holds `path`; nullptr when none does.
const std::string* CheckpointFolderHolding(const std::vector<std::string>& folders,
                                           const std::string& path);

// Collective: every rank of `comm` calls it once, after the last phase. Unless `quiet`, rank 0
// prints one line: files, bytes and Darshan's rate. posix_counters.read_time_per_rank_seconds
// holds each rank's read time outside `checkpoint_folders` (CheckpointFolders: the loads and
// the burst buffer's drain copies follow the checkpoint's layout, not the dataset's); the files
// folded beyond the records' budget keep that split when their fold group is such a folder.
void WriteRunCounters(const storage::CountingEnv& counting, const mpi::Communicator& comm,
                      RunResults& results, bool quiet,
                      const std::vector<std::string>& checkpoint_folders);

// The JSON text of <rank>_posix_counters.json.gz (with its final newline): what
// `{"rank", "totals" (every counter), "files": [{"file", "rank", "counters" (sparse)}]}` built as
// a metrics::Json and dumped gives, byte for byte, written without building that tree (which
// cost ~50 K instructions a file: most of a short run's end). Throws what the JSON library
// throws for a path that is not UTF-8.
std::string RankCountersJson(const storage::CountsOfRank& counts, int rank);

// libdeflate's level for <rank>_posix_counters.json.gz, and the text in each of its gzip members.
// Level 1 is the fastest: the file is written at the run's end, which every rank waits for.
inline constexpr int kCountersGzipLevel = 1;
inline constexpr std::size_t kCountersMemberBytes = std::size_t{1} << 20;

// The bytes of <rank>_posix_counters.json.gz: RankCountersJson's text in independent gzip members
// of kCountersMemberBytes of text each (gzip readers read the members as one text), the text made
// and compressed a member at a time: neither the whole text nor a buffer larger than about two
// members is held.
std::string RankCountersGzip(const storage::CountsOfRank& counts, int rank);

// How many files summary.json lists in posix_counters.top_files (by bytes read + written).
inline constexpr std::size_t kTopCounterFiles = 10;

}  // namespace dlbench::workflow
