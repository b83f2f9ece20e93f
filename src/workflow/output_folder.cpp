#include "workflow/output_folder.h"

#include <ctime>
#include <sstream>

#include "config/load.h"
#include "mpi/agreement.h"
#include "storage/file.h"
#include "util/error.h"
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

}  // namespace

std::filesystem::path ResolveOutputFolder(const config::Config& config,
                                          const std::optional<std::string>& cli_output,
                                          const mpi::Communicator& comm) {
  if (cli_output) return *cli_output;
  if (config.output.folder) return *config.output.folder;
  const std::string stamp = comm.broadcast(comm.is_root() ? NowStamp() : std::string());
  return std::filesystem::path("output") / config.model.name / stamp;
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
  ClaimOutputFolder(folder, force, comm);
  mpi::AgreeOnFailure(comm, [&] {
    if (!comm.is_root()) return;
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
