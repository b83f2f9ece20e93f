// Completing a checkpoint across ranks: every rank reports whether its own files were written;
// only if all were does each node's leader check its node's planned files, write the manifest
// and abort the writes an interrupted earlier save left pending (Env::abort_pending_writes)
// in its node's folder (one node, rank 0, unless the folder is node-local: then no rank looks at
// another node's folder). The outcome is shared, so every rank returns or throws the same way and
// none waits forever.
#pragma once

#include <string>

#include "checkpoint/manifest.h"
#include "checkpoint/plan.h"
#include "mpi/communicator.h"
#include "mpi/nodes.h"
#include "storage/file.h"

namespace dlbench::checkpoint {

// Collective over `comm` (whose size must be plan.world()). Returns true when the manifest was
// written (on every node of `nodes`), false (on every rank) when some rank reported a failure, in
// which case no manifest exists and the checkpoint stays incomplete. Throws Error(kIo) on every
// rank, with the lowest failing leader's message, if a leader found a file missing or could not
// write its manifest; the other nodes' manifests are then removed again.
bool CommitCheckpoint(const mpi::Communicator& comm, const mpi::NodeMap& nodes, storage::Env& env,
                      const std::string& folder, const CheckpointPlan& plan,
                      const ContentSettings& content, bool fsync, bool this_rank_succeeded);
// The same for a folder every rank shares (rank 0 checks and writes).
bool CommitCheckpoint(const mpi::Communicator& comm, storage::Env& env, const std::string& folder,
                      const CheckpointPlan& plan, const ContentSettings& content, bool fsync,
                      bool this_rank_succeeded);

}  // namespace dlbench::checkpoint
