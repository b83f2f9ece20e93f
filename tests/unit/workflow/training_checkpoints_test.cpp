// When training checkpoints and what the checkpoints are called, and how store results become
// metrics records.
#include "workflow/training_checkpoints.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "support/expect_error.h"
#include "util/error.h"
#include "workflow/checkpoint_records.h"

namespace dlbench::workflow {
namespace {

config::CheckpointConfig StepMode(std::int64_t k) {
  config::CheckpointConfig c;
  c.steps_between_checkpoints = k;
  return c;
}

config::CheckpointConfig EpochMode(int after, int every) {
  config::CheckpointConfig c;
  c.checkpoint_after_epoch = after;
  c.epochs_between_checkpoints = every;
  return c;
}

// (epoch, steps done) of every save a run of `epochs` x `steps` makes, in order, with names.
std::vector<std::string> Saves(const CheckpointSchedule& schedule, int epochs,
                               std::uint64_t steps) {
  std::vector<std::string> names;
  for (int e = 1; e <= epochs; ++e) {
    for (std::uint64_t s = 1; s <= steps; ++s) {
      if (schedule.after_step(e, s)) {
        names.push_back(schedule.step_name(e, s) + "#" + std::to_string(schedule.block_number(s)));
      }
    }
    if (schedule.after_epoch(e)) names.push_back(schedule.epoch_name(e));
  }
  return names;
}

TEST(CheckpointSchedule, StepModeSavesAfterEveryKthStepOfEachEpoch) {
  const CheckpointSchedule schedule(StepMode(3), 7);
  EXPECT_TRUE(schedule.step_mode());
  // The step count restarts each epoch, so names repeat their step across epochs (DLIO's).
  EXPECT_EQ(Saves(schedule, 2, 7),
            (std::vector<std::string>{"global_epoch1_step3#1", "global_epoch1_step6#2",
                                      "global_epoch2_step3#1", "global_epoch2_step6#2"}));
}

TEST(CheckpointSchedule, StepModeIncludesTheLastStepWhenItIsAMultiple) {
  const CheckpointSchedule schedule(StepMode(2), 4);
  EXPECT_EQ(Saves(schedule, 1, 4),
            (std::vector<std::string>{"global_epoch1_step2#1", "global_epoch1_step4#2"}));
}

TEST(CheckpointSchedule, StepModeLongerThanAnEpochNeverSaves) {
  EXPECT_TRUE(Saves(CheckpointSchedule(StepMode(9), 8), 3, 8).empty());
}

TEST(CheckpointSchedule, EveryStep) {
  EXPECT_EQ(Saves(CheckpointSchedule(StepMode(1), 2), 1, 2),
            (std::vector<std::string>{"global_epoch1_step1#1", "global_epoch1_step2#2"}));
}

TEST(CheckpointSchedule, EpochModeIgnoresStepsAndNamesTheLastCompletedStep) {
  const CheckpointSchedule schedule(EpochMode(1, 1), 5);
  EXPECT_FALSE(schedule.step_mode());
  EXPECT_EQ(Saves(schedule, 3, 5),
            (std::vector<std::string>{"global_epoch1_step5", "global_epoch2_step5",
                                      "global_epoch3_step5"}));
  EXPECT_EQ(schedule.block_number(5), 1);
}

TEST(CheckpointSchedule, EpochModeStartsAtCheckpointAfterEpochThenEveryN) {
  // unet3d: 5 epochs, after epoch 5, every 2: one checkpoint, after epoch 5.
  EXPECT_EQ(Saves(CheckpointSchedule(EpochMode(5, 2), 3), 5, 3),
            (std::vector<std::string>{"global_epoch5_step3"}));
  EXPECT_EQ(Saves(CheckpointSchedule(EpochMode(2, 3), 1), 9, 1),
            (std::vector<std::string>{"global_epoch2_step1", "global_epoch5_step1",
                                      "global_epoch8_step1"}));
}

TEST(CheckpointSchedule, EpochModeAfterEpochZeroCountsFromZero) {
  EXPECT_EQ(Saves(CheckpointSchedule(EpochMode(0, 2), 1), 4, 1),
            (std::vector<std::string>{"global_epoch2_step1", "global_epoch4_step1"}));
}

checkpoint::StoreOpResult Op(std::string name, Seconds start, Seconds end, Bytes bytes) {
  checkpoint::StoreOpResult op;
  op.name = std::move(name);
  op.start = start;
  op.end = end;
  op.bytes = bytes;
  return op;
}

TEST(CheckpointLog, RecordsOperationsInOrder) {
  CheckpointLog log;
  checkpoint::StoreOpResult waited = Op("a", 1.0, 1.5, 100);
  waited.backpressure = 0.25;
  log.add(metrics::CheckpointKind::kSave, 2, 3, waited);
  log.add(metrics::CheckpointKind::kLoad, 1, 1, Op("a", 2.0, 2.25, 100));
  ASSERT_EQ(log.records().size(), 2u);
  const metrics::CheckpointRecord& save = log.records()[0];
  EXPECT_EQ(save.kind, metrics::CheckpointKind::kSave);
  EXPECT_EQ(save.epoch, 2);
  EXPECT_EQ(save.number, 3);
  EXPECT_EQ(save.start, 1.0);
  EXPECT_EQ(save.end, 1.5);
  EXPECT_EQ(save.bytes, 100u);
  EXPECT_EQ(save.backpressure, 0.25);
  EXPECT_FALSE(save.drain_end);
  EXPECT_EQ(log.records()[1].kind, metrics::CheckpointKind::kLoad);
}

TEST(CheckpointLog, DrainsAttachToTheSaveOfTheSameNameDurableAtTheManifest) {
  CheckpointLog log;
  log.add(metrics::CheckpointKind::kSave, 1, 1, Op("a", 1.0, 1.5, 100));
  log.add(metrics::CheckpointKind::kSave, 1, 2, Op("b", 2.0, 2.5, 100));
  log.add(metrics::CheckpointKind::kLoad, 1, 1, Op("a", 3.0, 3.5, 100));
  checkpoint::DrainResult b{"b", 2.5, 4.0, 100, 4.25};
  checkpoint::DrainResult a{"a", 1.5, 3.0, 100, 2.0};  // manifest before this rank's end: clamp
  log.attach_drains({b, a});
  EXPECT_EQ(*log.records()[0].drain_start, 1.5);
  EXPECT_EQ(*log.records()[0].drain_end, 3.0);
  EXPECT_EQ(*log.records()[1].drain_end, 4.25);
  EXPECT_EQ(log.records()[1].drained_bytes, 100u);
  EXPECT_FALSE(log.records()[2].drain_end);  // loads are never drained
}

TEST(CheckpointLog, ADrainOfAnUnsavedCheckpointIsABug) {
  CheckpointLog log;
  log.add(metrics::CheckpointKind::kLoad, 1, 1, Op("a", 1.0, 1.5, 100));
  dlbench::test::ExpectError(
      [&] {
        log.attach_drains({checkpoint::DrainResult{"a", 1.5, 3.0, 100, 3.0}});
      },
      ExitCode::kInternal, {"drain of a"});
}

}  // namespace
}  // namespace dlbench::workflow
