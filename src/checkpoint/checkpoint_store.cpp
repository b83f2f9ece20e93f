#include "checkpoint/checkpoint_store.h"

#include "checkpoint/burst_buffer_store.h"
#include "checkpoint/direct_store.h"

namespace dlbench::checkpoint {

std::unique_ptr<CheckpointStore> MakeCheckpointStore(const config::Config& config,
                                                     const mpi::Communicator& comm,
                                                     storage::Env& env, Seconds origin) {
  if (config.checkpoint.burst_buffer) return MakeBurstBufferStore(config, comm, env, origin);
  return std::make_unique<DirectStore>(config.checkpoint, CheckpointContentSeed(config), comm, env,
                                       origin);
}

}  // namespace dlbench::checkpoint
