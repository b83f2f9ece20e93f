// Before training: is the dataset there, and complete?
#pragma once

#include "config/config.h"
#include "mpi/communicator.h"
#include "storage/file.h"

namespace dlbench::workflow {

// Collective. Passes when dlbench's completeness marker matches this configuration, or, for a
// dataset without marker (written by DLIO or another tool), when every configured file exists.
// Throws Error(kUsage) when there is no dataset at all ("run `dlbench generate ...`"), when
// generation of it was interrupted, and Error(kIo) naming the first missing file and how many
// are missing otherwise.
void RequireDataset(const config::Config& config, storage::Env& env, const mpi::Communicator& comm);

}  // namespace dlbench::workflow
