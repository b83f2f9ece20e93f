// What a rank's checkpoint saves and loads amounted to, in the metrics' terms: one
// metrics::CheckpointRecord per operation, with the burst-buffer drains that CheckpointStore::
// Finish reports attached to the saves they belong to. Shared by checkpoint-only runs and
// checkpoints during training.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "checkpoint/checkpoint_store.h"
#include "checkpoint/plan.h"
#include "metrics/json_fields.h"
#include "metrics/step_record.h"
#include "mpi/communicator.h"
#include "util/units.h"

namespace dlbench::workflow {

class CheckpointLog {
 public:
  // `epoch` and `number` place the operation in <rank>_per_epoch_stats.json ("save_ckpt<number>"
  // under epoch `epoch`); the same pair must not repeat for one kind.
  void add(metrics::CheckpointKind kind, int epoch, int number,
           const checkpoint::StoreOpResult& op);

  // Attaches each drain to the save of the same checkpoint name (the durable time is when the
  // checkpoint's manifest landed on the capacity side, not before this rank's last file).
  // Throws Error(kInternal) for a drain of a checkpoint that was not saved.
  void attach_drains(const std::vector<checkpoint::DrainResult>& drains);

  const std::vector<metrics::CheckpointRecord>& records() const { return records_; }

 private:
  std::vector<metrics::CheckpointRecord> records_;
  std::vector<std::string> names_;  // per record
};

// Runs `op` (a store's Save or Load) as a checkpoint.save / checkpoint.load trace event
// (`load`) on the calling thread, with the bytes the rank moved.
checkpoint::StoreOpResult Traced(bool load, const std::function<checkpoint::StoreOpResult()>& op);

// Collective. dlbench's fields that the metrics module does not derive from the records:
// checkpoint_finish_seconds (max over ranks of the time CheckpointStore::Finish blocked: the wait
// for every drain to be durable) and, when `stall` is given, checkpoint_stall_seconds (max over
// ranks of the total time training was blocked by saves, commits included) and, when DLIO itself
// would write another size for this configuration (checkpoint::PlanSummary::dlio_own_bytes),
// dlio_checkpoint_size_GB, that size in GiB as DLIO reports it. Returns an object to merge into
// summary.json's "metric".
metrics::Json CheckpointExtraFields(const mpi::Communicator& comm, Seconds finish,
                                    const Seconds* stall, const checkpoint::PlanSummary& plan);

}  // namespace dlbench::workflow
