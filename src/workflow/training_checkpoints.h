// Checkpoints during training (workflow.train and workflow.checkpoint both on). Owns the byte plan
// and the store, tells the trainer when to pause, saves,
// and turns what was saved into metrics::CheckpointRecords.
//
// Schedule:
//   step mode (checkpoint.steps_between_checkpoints = k >= 1): after steps k, 2k, ... of every
//     epoch (the step count restarts each epoch, as DLIO's), named global_epoch{E}_step{S};
//   epoch mode (k < 0): after epoch E when E >= checkpoint_after_epoch and
//     (E - checkpoint_after_epoch) is a multiple of epochs_between_checkpoints, named
//     global_epoch{E}_step{K} after the epoch's last completed step K (DLIO names it K + 1, D15).
// Saves happen between the trainer's blocks (step mode) or after an epoch's blocks (epoch mode),
// so their time is outside every AU/throughput block.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "checkpoint/checkpoint_store.h"
#include "checkpoint/plan.h"
#include "config/config.h"
#include "metrics/json_fields.h"
#include "metrics/step_record.h"
#include "mpi/communicator.h"
#include "pipeline/trainer.h"
#include "storage/file.h"
#include "workflow/checkpoint_records.h"

namespace dlbench::workflow {

// When training checkpoints, and under which name. Pure: no I/O.
class CheckpointSchedule {
 public:
  CheckpointSchedule(const config::CheckpointConfig& checkpoint, std::uint64_t steps_per_epoch);

  bool step_mode() const { return steps_between_ > 0; }
  // Step mode: whether to save after `steps_done` steps of `epoch`.
  bool after_step(int epoch, std::uint64_t steps_done) const;
  // Epoch mode: whether to save after `epoch`.
  bool after_epoch(int epoch) const;
  // DLIO's <b> of "save_ckpt<b>": the block that ended at `steps_done` (1 in epoch mode).
  int block_number(std::uint64_t steps_done) const;
  // Folder names.
  std::string step_name(int epoch, std::uint64_t steps_done) const;
  std::string epoch_name(int epoch) const;

 private:
  std::int64_t steps_between_;
  int after_epoch_;
  int epochs_between_;
  std::uint64_t steps_per_epoch_;
};

class TrainingCheckpoints {
 public:
  // Collective (the store may be). Throws Error(kUsage), agreed by every rank, when the model
  // does not fit `comm.size()` ranks or the store cannot be made.
  TrainingCheckpoints(const config::Config& config, const mpi::Communicator& comm,
                      storage::Env& env, Seconds origin, std::uint64_t steps_per_epoch);
  ~TrainingCheckpoints();

  // Sets pause_after_step / between_blocks (step mode) or wraps after_epoch (epoch mode).
  void install(pipeline::TrainerHooks& hooks);

  // Collective, after training: waits for every save to be durable (CheckpointStore::Finish,
  // timed on its own) and appends this rank's CheckpointRecords to `record`.
  void finish(metrics::RankRecord& record);

  // DLIO's nominal global checkpoint size (checkpoint_size_GB), for RunSettings.
  double nominal_size_GiB() const;

  // Collective: checkpoint_stall_seconds and checkpoint_finish_seconds for summary.json.
  metrics::Json summary_fields() const;

 private:
  void save(int epoch, int number, const std::string& name);

  const mpi::Communicator comm_;
  CheckpointSchedule schedule_;
  std::unique_ptr<checkpoint::CheckpointPlan> plan_;
  std::unique_ptr<checkpoint::CheckpointStore> store_;
  CheckpointLog log_;
  Seconds stall_ = 0;   // this rank's time blocked in saves
  Seconds finish_ = 0;  // this rank's time in Finish
};

}  // namespace dlbench::workflow
