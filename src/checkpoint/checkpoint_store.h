// Where checkpoints go: straight to checkpoint.checkpoint_folder (DirectStore), or through a
// burst buffer that absorbs the write on a fast tier and drains it asynchronously to the
// checkpoint folder (BurstBufferStore). The checkpoint phase and the training loop talk only to
// this interface, so both paths are measured the same way.
//
// Threading: every method is called from the rank's main thread, in the same order on every
// rank (Save and Load are collective over the communicator the store was made with). A store
// may run background threads (drains), which never call MPI.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "checkpoint/plan.h"
#include "config/config.h"
#include "mpi/communicator.h"
#include "storage/file.h"
#include "util/units.h"

namespace dlbench::checkpoint {

// One save or load on this rank. Times are metrics::Now() minus the run's synchronized origin.
struct StoreOpResult {
  std::string name;   // checkpoint folder name, e.g. global_epoch1_step8
  Seconds start = 0;  // entry (the trainer stops here)
  Seconds end = 0;    // the trainer may continue (burst buffer: written to the fast tier)
  Bytes bytes = 0;    // bytes this rank wrote or read
  // Part of [start, end) spent waiting for room on the fast tier (capacity or
  // max_pending_checkpoints): backpressure, reported as stall.
  Seconds backpressure = 0;
  std::string tier;  // where it was written or read from ("checkpoint_folder" or the tier name)
};

// When one rank's part of a checkpoint became durable on the checkpoint folder.
struct DrainResult {
  std::string name;
  Seconds start = 0;  // drain of this rank's files began
  Seconds end = 0;    // this rank's last file fsync'd on the capacity side
  Bytes bytes = 0;
  // When the capacity-side manifest (written last, by one rank) made the checkpoint durable;
  // the same value on every rank once known.
  Seconds durable_at = 0;
};

class CheckpointStore {
 public:
  virtual ~CheckpointStore() = default;

  // Collective. Writes this rank's files of `plan` as checkpoint `name` and completes it (a
  // manifest written last, atomically). Returns when training may continue. Throws Error(kIo)
  // naming the path and operation on failure; no checkpoint is then marked complete.
  virtual StoreOpResult save(const std::string& name, const CheckpointPlan& plan) = 0;

  // Collective. Reads checkpoint `name`'s files of `source_rank` (this rank, or another with
  // checkpoint.recovery_rank_shift) back and checks sizes (and content with checkpoint.verify).
  // Reads from the fast tier when the checkpoint is still there, else from the checkpoint folder.
  // Throws Error(kIo) when the checkpoint is incomplete or its files are wrong.
  virtual StoreOpResult load(const std::string& name, const CheckpointPlan& plan,
                             Rank source_rank) = 0;

  // Collective. Blocks until every checkpoint saved so far is durable in the checkpoint folder,
  // and returns this rank's drain results in save order (empty for a DirectStore, whose saves
  // are durable when Save returns).
  virtual std::vector<DrainResult> finish() = 0;
};

// The store the configuration asks for: a BurstBufferStore when checkpoint.burst_buffer is set,
// else a DirectStore on checkpoint.checkpoint_folder. `env` is the POSIX (or test) Env; storage
// tiers' emulation (bandwidth_limit, latency) is applied by the store to paths under each tier.
std::unique_ptr<CheckpointStore> MakeCheckpointStore(const config::Config& config,
                                                     const mpi::Communicator& comm,
                                                     storage::Env& env, Seconds origin);

}  // namespace dlbench::checkpoint
