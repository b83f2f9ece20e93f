// A CheckpointStore that absorbs each save on a fast tier (checkpoint.burst_buffer.tier) and
// drains complete checkpoints in the background to checkpoint.checkpoint_folder, where a manifest
// written last, once every rank's part is drained, marks the checkpoint durable.
#pragma once

#include <memory>

#include "checkpoint/checkpoint_store.h"
#include "config/config.h"
#include "mpi/communicator.h"
#include "storage/file.h"
#include "util/units.h"

namespace dlbench::checkpoint {

// Requires config.checkpoint.burst_buffer (throws Error(kUsage) otherwise or when its tier is
// not one of storage.tiers). `env` is the raw Env; the store applies every tier's emulation.
std::unique_ptr<CheckpointStore> MakeBurstBufferStore(const config::Config& config,
                                                      const mpi::Communicator& comm,
                                                      storage::Env& env, Seconds origin);

}  // namespace dlbench::checkpoint
