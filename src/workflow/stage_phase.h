// Staging the dataset between storage tiers (workflow.stage, `dlbench stage`; docs/staging.md).
// The staged copy lives under the `stage.to` tier at the data folder's path relative to the
// `stage.from` tier: with tiers pfs (/lustre/p) and nvme (/local/p), data_folder /lustre/p/unet
// is staged to /local/p/unet. Policy before_training is the stage phase here, after which the
// run's later phases use StagedConfig (training reads the staged copy); per_epoch and on_demand
// copy while training reads (workflow/training_staging.h).
#pragma once

#include <map>
#include <string>

#include "config/config.h"
#include "generation/dataset_files.h"
#include "metrics/json_fields.h"
#include "mpi/communicator.h"
#include "staging/file_copy.h"
#include "staging/tier_counts.h"
#include "storage/file.h"
#include "workflow/run_results.h"

namespace dlbench::workflow {

// The staged data folder: dataset.data_folder's path relative to the from tier, under the to
// tier. config::Validate refuses, at load, every configuration without one (stage.to or
// stage.from not a tier, the data folder under no tier or not under stage.from, from = to), so
// meeting one here throws InternalError (exit 1).
std::string StagedDataFolder(const config::Config& config);

// `config` with dataset.data_folder replaced by StagedDataFolder(config).
config::Config StagedConfig(const config::Config& config);

// The copies of dataset file `g` (data file and companions) from `from` to `to`.
std::vector<staging::FileCopy> CopiesOf(const generation::DatasetFiles& from,
                                        const generation::DatasetFiles& to, FileIndex g);

// stage.threads / stage.verify as copy options.
staging::CopyOptions CopyOptionsFrom(const config::StageConfig& stage);

// The summary.json part and terminal line every policy reports: `bytes`, `files` copied (summed
// over ranks), `skipped` files already staged, `seconds` (the slowest rank's copy time) and the
// bandwidth they make. Collective; the result is meaningful on rank 0.
metrics::Json StageSummary(const config::Config& config, const staging::CopyStats& mine,
                           const mpi::Communicator& comm);
std::string StageLine(const metrics::Json& stage);

// summary.json's "storage_counts_per_tier" of a phase: each tier's opens, reads, bytes read,
// writes and bytes written from `before` to `after` (staging::CountsPerTier at the phase's start
// and end), summed over ranks. Collective.
metrics::Json TierCountsSummary(const std::map<std::string, storage::IoCounts>& before,
                                const std::map<std::string, storage::IoCounts>& after,
                                const mpi::Communicator& comm);

// Collective. Policy before_training: copies the files each rank will read (stage.all_files:
// every file, spread over the ranks) from the data folder to StagedDataFolder, skipping files
// already there (an interrupted staging resumes; partial files are replaced), then the dataset's
// marker, and adds "stage" to summary.json. On a node-local `to` tier
// (storage.tiers.<to>.node_local) every node gets the files its own ranks read, and its lowest rank
// checks that node's capacity and free space, removes its partial files and copies the marker
// there. Throws Error(kUsage) when the files to stage exceed the to tier's configured capacity and
// Error(kIo) when they exceed its free space, before copying anything, both agreed by every rank.
void RunStagePhase(const config::Config& config, bool quiet, const mpi::Communicator& comm,
                   storage::Env& env, RunResults& results);

}  // namespace dlbench::workflow
