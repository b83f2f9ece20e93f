// Where a run writes its results, and the record of how it was configured.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "config/config.h"
#include "mpi/communicator.h"

namespace dlbench::workflow {

// --output DIR if given, else output.folder, else output/<model.name>/<YYYYmmdd-HHMMSS>/
// (the time agreed by rank 0, so every rank names the same folder; -2, -3, ... appended when a
// run of the same second has the name).
std::filesystem::path ResolveOutputFolder(const config::Config& config,
                                          const std::optional<std::string>& cli_output,
                                          const mpi::Communicator& comm);

// Collective: rank 0 claims `folder` as an output folder (folder_claim.h); every rank throws the
// same error if it is refused. The folder of a repeated run's runs (OUTPUT/run-<i>/, aggregate).
void ClaimOutputFolder(const std::filesystem::path& folder, bool force,
                       const mpi::Communicator& comm);

// Claims the folder (rank 0; folder_claim.h: created with its marker, or refused unless `force`),
// removes the results an earlier run into it left when it held dlbench's marker before the claim
// (summary.json, <rank>_output.json, _per_epoch_stats.json, _posix_counters.json.gz and the
// _posix_counters.json of earlier versions, trace-<rank>-of-<ranks>.pfw[.gz]: names dlbench gives,
// nothing else; a folder claimed with --force keeps them), and writes config.yaml (the resolved
// config) and overrides.yaml (the overrides, verbatim) into it, as DLIO/Hydra do. All ranks return
// after the folder exists, or throw the same error.
void PrepareOutputFolder(const std::filesystem::path& folder, const config::Config& config,
                         bool force, const mpi::Communicator& comm);

}  // namespace dlbench::workflow
