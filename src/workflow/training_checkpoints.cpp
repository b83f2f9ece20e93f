#include "workflow/training_checkpoints.h"

#include <utility>

#include "checkpoint/file_names.h"
#include "metrics/clock.h"
#include "mpi/agreement.h"

namespace dlbench::workflow {

CheckpointSchedule::CheckpointSchedule(const config::CheckpointConfig& checkpoint,
                                       std::uint64_t steps_per_epoch)
    : steps_between_(checkpoint.steps_between_checkpoints),
      after_epoch_(checkpoint.checkpoint_after_epoch),
      epochs_between_(checkpoint.epochs_between_checkpoints),
      steps_per_epoch_(steps_per_epoch) {}

bool CheckpointSchedule::after_step(int /*epoch*/, std::uint64_t steps_done) const {
  return step_mode() && steps_done > 0 &&
         steps_done % static_cast<std::uint64_t>(steps_between_) == 0;
}

bool CheckpointSchedule::after_epoch(int epoch) const {
  // The configuration guarantees epochs_between_checkpoints >= 1.
  return !step_mode() && epoch >= after_epoch_ && epochs_between_ > 0 &&
         (epoch - after_epoch_) % epochs_between_ == 0;
}

int CheckpointSchedule::block_number(std::uint64_t steps_done) const {
  if (!step_mode()) return 1;
  return static_cast<int>(steps_done / static_cast<std::uint64_t>(steps_between_));
}

std::string CheckpointSchedule::step_name(int epoch, std::uint64_t steps_done) const {
  return checkpoint::CheckpointFolderName(epoch, static_cast<std::int64_t>(steps_done));
}

std::string CheckpointSchedule::epoch_name(int epoch) const {
  return checkpoint::CheckpointFolderName(epoch, static_cast<std::int64_t>(steps_per_epoch_));
}

TrainingCheckpoints::TrainingCheckpoints(const config::Config& config,
                                         const mpi::Communicator& comm, storage::Env& env,
                                         Seconds origin, std::uint64_t steps_per_epoch)
    : comm_(comm), schedule_(config.checkpoint, steps_per_epoch) {
  mpi::AgreeOnFailure(comm, [&] {
    plan_ =
        std::make_unique<checkpoint::CheckpointPlan>(config.model, config.checkpoint, comm.size());
  });
  mpi::AgreeOnFailure(comm,
                      [&] { store_ = checkpoint::MakeCheckpointStore(config, comm, env, origin); });
}

TrainingCheckpoints::~TrainingCheckpoints() = default;

void TrainingCheckpoints::install(pipeline::TrainerHooks& hooks) {
  if (schedule_.step_mode()) {
    hooks.pause_after_step = [this](int epoch, std::uint64_t steps_done) {
      return schedule_.after_step(epoch, steps_done);
    };
    hooks.between_blocks = [this](int epoch, std::uint64_t steps_done) {
      save(epoch, schedule_.block_number(steps_done), schedule_.step_name(epoch, steps_done));
    };
    return;
  }
  hooks.after_epoch = [this, previous = std::move(hooks.after_epoch)](int epoch) {
    if (previous) previous(epoch);
    if (schedule_.after_epoch(epoch)) save(epoch, 1, schedule_.epoch_name(epoch));
  };
}

void TrainingCheckpoints::save(int epoch, int number, const std::string& name) {
  const Seconds entered = metrics::Now();
  log_.add(metrics::CheckpointKind::kSave, epoch, number,
           Traced(false, [&] { return store_->save(name, *plan_); }));
  stall_ += metrics::Now() - entered;
}

void TrainingCheckpoints::finish(metrics::RankRecord& record) {
  const Seconds entered = metrics::Now();
  log_.attach_drains(store_->finish());
  finish_ = metrics::Now() - entered;
  for (const metrics::CheckpointRecord& r : log_.records()) record.checkpoints.push_back(r);
}

double TrainingCheckpoints::nominal_size_GiB() const {
  return static_cast<double>(plan_->totals().dlio_reported_bytes) / static_cast<double>(GiB);
}

metrics::Json TrainingCheckpoints::summary_fields() const {
  return CheckpointExtraFields(comm_, finish_, &stall_, plan_->totals());
}

}  // namespace dlbench::workflow
