// The storage of a run, built in one place from the configuration: a mount table
// (storage/mount_table.h, with storage.tiers mounted: storage/tier_env.h) that sends local paths
// to storage::PosixEnv() (which DLBENCH_FAULTS may wrap), a configured tier's folder to its
// emulation, and a URI to the backend registered for its scheme. Every byte of the workload goes
// through it: generation, staging, training's reads, checkpoints, the burst buffer and its drain,
// the claims of the folders dlbench writes (folder_claim.h) and the removal of a generated
// dataset. Result files in the output folder (summary.json, dlio.log, the traces, the copy of the
// configuration) are not the workload's I/O: they go to storage::PosixEnv() directly
// (output_folder.h, run_results.h).
//
// Before any work the run refuses, with exit 2 agreed by every rank, a configured folder that no
// backend handles (a URI of a scheme nothing is registered for) and a setting that needs a
// capability (storage/file.h Capabilities) the storage of its folder lacks, naming the setting,
// the folder and the backend.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "config/config.h"
#include "mpi/communicator.h"
#include "storage/tier_env.h"
#include "workflow/folder_claim.h"

namespace dlbench::workflow {

// Makes the Env that stores the URIs of one scheme for rank `rank` of a run of `config`, whose
// configured folders of that scheme are `folders` (never empty: a scheme no folder uses gets no
// Env). It may check that the storage answers (credentials, buckets), throwing UsageError.
using SchemeBackend = std::function<std::unique_ptr<storage::Env>(
    const config::Config& config, const std::vector<std::string>& folders, int rank)>;

// Registers the backend of `scheme` ("s3") for every run this process makes. Call it before the
// first run (where the command is set up); not thread-safe. A scheme registered twice is a bug
// (InternalError).
void RegisterSchemeBackend(const std::string& scheme, SchemeBackend make);

// Collective. The run's storage as described above, checked against what the run does (`use`;
// FolderUse::reads for training). Throws the agreed UsageError of the checks above.
std::unique_ptr<storage::TierEnv> MakeRunStorage(const config::Config& config, const FolderUse& use,
                                                 const mpi::Communicator& comm);

// The checks of MakeRunStorage on one rank of `ranks`: every configured folder has a backend in
// `storage`, and the settings `use` applies have the capabilities they need there: O_DIRECT
// (reader.odirect, checkpoint.odirect), memory maps (mmap_indexed_binary), a page cache
// (reader.drop_caches), several writers of one file (a dataset of fewer files than ranks in a
// format written as shared files). Throws UsageError naming the setting, folder and backend.
void CheckRunStorage(const config::Config& config, const FolderUse& use, int ranks,
                     storage::MountTable& storage);

// Rank 0 prints one line per emulated tier unless `quiet`, so that no result is mistaken for the
// real device's.
void AnnounceEmulation(const storage::TierEnv& storage, bool quiet, const mpi::Communicator& comm);

}  // namespace dlbench::workflow
