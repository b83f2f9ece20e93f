#include "checkpoint/checkpoint_commit.h"

#include "util/error.h"

namespace dlbench::checkpoint {

bool CommitCheckpoint(const mpi::Communicator& comm, storage::Env& env, const std::string& folder,
                      const CheckpointPlan& plan, const ContentSettings& content, bool fsync,
                      bool this_rank_succeeded) {
  if (comm.size() != plan.world()) {
    throw Error(ExitCode::kInternal, "CommitCheckpoint: communicator of " +
                                         std::to_string(comm.size()) + " ranks for a plan of " +
                                         std::to_string(plan.world()));
  }
  // Doubles as the barrier: nobody proceeds until every rank has finished writing.
  if (comm.min(this_rank_succeeded ? 1 : 0) == 0) return false;
  std::string failure;
  if (comm.is_root()) {
    try {
      WriteManifest(env, folder, plan, content, fsync);
    } catch (const Error& e) {
      failure = e.what();
      if (failure.empty()) failure = "unknown error";
    }
  }
  failure = comm.broadcast(failure, 0);
  if (!failure.empty()) throw Error(ExitCode::kIo, failure);
  return true;
}

}  // namespace dlbench::checkpoint
