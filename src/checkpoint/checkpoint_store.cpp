#include "checkpoint/checkpoint_store.h"

#include "checkpoint/direct_store.h"
#include "util/error.h"

namespace dlbench::checkpoint {

std::unique_ptr<CheckpointStore> MakeCheckpointStore(const config::Config& config,
                                                     const mpi::Communicator& comm,
                                                     storage::Env& env, Seconds origin) {
  if (config.checkpoint.burst_buffer) {
    throw UsageError(
        "checkpoint.burst_buffer is not built yet in this version of dlbench; remove it to "
        "write checkpoints straight to checkpoint.checkpoint_folder");
  }
  return std::make_unique<DirectStore>(config.checkpoint, CheckpointContentSeed(config), comm, env,
                                       origin);
}

}  // namespace dlbench::checkpoint
