#include "checkpoint/checkpoint_commit.h"

#include "mpi/agreement.h"
#include "util/error.h"
#include "util/file_names.h"

namespace dlbench::checkpoint {

bool CommitCheckpoint(const mpi::Communicator& comm, const mpi::NodeMap& nodes, storage::Env& env,
                      const std::string& folder, const CheckpointPlan& plan,
                      const ContentSettings& content, bool fsync, bool this_rank_succeeded) {
  if (comm.size() != plan.world()) {
    throw InternalError("CommitCheckpoint: communicator of " + std::to_string(comm.size()) +
                        " ranks for a plan of " + std::to_string(plan.world()));
  }
  // Doubles as the barrier: nobody proceeds until every rank has finished writing.
  if (comm.min(this_rank_succeeded ? 1 : 0) == 0) return false;
  bool wrote = false;
  try {
    mpi::AgreeOnFailure(comm, [&] {
      if (!nodes.leads(comm.rank())) return;
      CheckPlannedFiles(env, folder, plan, nodes.ranks_of(nodes.node_of(comm.rank())));
      WritePlannedManifest(env, folder, plan, content, fsync);
      wrote = true;
      // Every rank's files are complete now: an upload still pending in the folder is an
      // interrupted earlier save's (a killed job's), which an object store would keep.
      env.abort_pending_writes(folder);
    });
  } catch (const Error&) {
    // Complete on one node only is not complete: no node keeps a manifest.
    if (wrote) {
      try {
        env.remove(folder + "/" + file_names::kCheckpointManifest);
      } catch (const Error&) {  // best effort: the error below says the save failed
      }
    }
    throw;
  }
  return true;
}

bool CommitCheckpoint(const mpi::Communicator& comm, storage::Env& env, const std::string& folder,
                      const CheckpointPlan& plan, const ContentSettings& content, bool fsync,
                      bool this_rank_succeeded) {
  return CommitCheckpoint(comm, mpi::NodeMap::Single(comm.size()), env, folder, plan, content,
                          fsync, this_rank_succeeded);
}

}  // namespace dlbench::checkpoint
