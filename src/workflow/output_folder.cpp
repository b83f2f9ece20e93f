#include "workflow/output_folder.h"

#include <algorithm>
#include <ctime>
#include <sstream>
#include <string_view>

#include "config/load.h"
#include "mpi/agreement.h"
#include "storage/file.h"
#include "util/error.h"
#include "util/file_names.h"
#include "util/path_text.h"
#include "workflow/folder_claim.h"
#include "workflow/run_results.h"

namespace dlbench::workflow {
namespace {

std::string NowStamp() {
  const std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y%m%d-%H%M%S", &local);
  return buffer;
}

bool AllDigits(std::string_view text) {
  return !text.empty() &&
         std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// The names a run gives its results in the output folder: summary.json, <rank>_output.json,
// <rank>_per_epoch_stats.json, <rank>_posix_counters.json.gz (<rank>_posix_counters.json before)
// and trace-<rank>-of-<ranks>.pfw[.gz].
bool IsRunResultName(std::string_view name) {
  if (name == file_names::kSummary) return true;
  for (std::string_view suffix : {file_names::kRankOutput, file_names::kRankEpochStats,
                                  file_names::kRankCounters, file_names::kRankCountersPlain}) {
    if (name.ends_with(suffix)) return AllDigits(name.substr(0, name.size() - suffix.size()));
  }
  for (std::string_view suffix : file_names::kTraceSuffixes) {
    if (!name.starts_with(file_names::kTracePrefix) || !name.ends_with(suffix)) continue;
    const std::size_t prefix = std::string_view(file_names::kTracePrefix).size();
    const std::string_view middle = name.substr(prefix, name.size() - prefix - suffix.size());
    const std::size_t of = middle.find("-of-");
    return of != std::string_view::npos && AllDigits(middle.substr(0, of)) &&
           AllDigits(middle.substr(of + 4));
  }
  return false;
}

}  // namespace

std::filesystem::path ResolveOutputFolder(const config::Config& config,
                                          const std::optional<std::string>& cli_output,
                                          const mpi::Communicator& comm) {
  if (cli_output) return *cli_output;
  if (config.output.folder) return *config.output.folder;
  // Two runs started within one second (a loop of short runs) named the same folder, and the
  // second replaced the first's results: a taken name gets -2, -3, ... (rank 0 looks).
  const std::filesystem::path parent = std::filesystem::path("output") / config.model.name;
  std::string name;
  if (comm.is_root()) {
    const std::string stamp = NowStamp();
    name = stamp;
    for (int n = 2; storage::PosixEnv().exists((parent / name).string()); ++n) {
      name = stamp + "-" + std::to_string(n);
    }
  }
  return parent / comm.broadcast(name);
}

void ClaimOutputFolder(const std::filesystem::path& folder, bool force,
                       const mpi::Communicator& comm) {
  mpi::AgreeOnFailure(comm, [&] {
    if (comm.is_root()) ClaimFolder(storage::PosixEnv(), folder.string(), "output folder", force);
  });
}

void PrepareOutputFolder(const std::filesystem::path& folder, const config::Config& config,
                         bool force, const mpi::Communicator& comm) {
  // The one folder not in the Config (--output): the same rule as the configured ones.
  if (const std::string reason = UnsafeFolderReason(folder.string()); !reason.empty()) {
    throw UsageError("output folder " + reason + "; give a dedicated folder").mark_collective();
  }
  // Whether the folder was dlbench's before this claim (its marker): a folder claimed with
  // --force holds files of others, which may bear the names of dlbench's results.
  bool ours = false;
  mpi::AgreeOnFailure(comm, [&] {
    if (comm.is_root())
      ours = storage::PosixEnv().exists((folder / file_names::kFolderMarker).string());
  });
  ClaimOutputFolder(folder, force, comm);
  mpi::AgreeOnFailure(comm, [&] {
    if (!comm.is_root()) return;
    // An earlier run's results would pass for this run's: its rank files (more ranks, or phases
    // this run has not) in `dlbench report` and `trace summary`, and its summary.json (saying
    // complete) until this run's first replaces it, when this run fails before. They go, by
    // their names, from a folder of dlbench's only.
    storage::Env& env = storage::PosixEnv();
    for (const storage::DirectoryEntry& entry : env.list_directory(folder.string())) {
      if (ours && !entry.is_directory && IsRunResultName(entry.name)) {
        env.remove((folder / entry.name).string());
      }
    }
    WriteFileAtomically(folder / "config.yaml", config::ToYaml(config));
    WriteFileAtomically(folder / "overrides.yaml", config::OverridesYaml(config.overrides));
    // Where MLPerf Storage's tooling reads them (DLIO run with ++hydra.output_subdir=dlio_config):
    // the configuration rooted at `workload:`, as Hydra composes it (docs/cluster.md).
    std::string rooted = "workload:\n";
    std::istringstream lines(config::ToYaml(config));
    for (std::string line; std::getline(lines, line);) rooted += "  " + line + "\n";
    storage::PosixEnv().create_directories((folder / "dlio_config").string());
    WriteFileAtomically(folder / "dlio_config" / "config.yaml", rooted);
    WriteFileAtomically(folder / "dlio_config" / "overrides.yaml",
                        config::OverridesYaml(config.overrides));
  });
}

}  // namespace dlbench::workflow
