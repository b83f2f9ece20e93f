// Completing a checkpoint across ranks: every rank reports whether its own files were written;
// only if all were does rank 0 check every planned file and write the manifest. The outcome is
// shared, so every rank returns or throws the same way and none waits forever.
#pragma once

#include <string>

#include "checkpoint/manifest.h"
#include "checkpoint/plan.h"
#include "mpi/communicator.h"
#include "storage/file.h"

namespace dlbench::checkpoint {

// Collective over `comm` (whose size must be plan.world()). Returns true when the manifest was
// written, false (on every rank) when some rank reported a failure, in which case no manifest
// exists and the checkpoint stays incomplete. Throws Error(kIo) on every rank, with rank 0's
// message, if rank 0 found a file missing or could not write the manifest.
bool CommitCheckpoint(const mpi::Communicator& comm, storage::Env& env, const std::string& folder,
                      const CheckpointPlan& plan, const ContentSettings& content, bool fsync,
                      bool this_rank_succeeded);

}  // namespace dlbench::checkpoint
