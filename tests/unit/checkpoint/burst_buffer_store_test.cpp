// BurstBufferStore through real files: save to the fast tier, drain, durable manifest, evict,
// load from either tier, faults on the capacity side, resume, backpressure, the drain pipelined
// with the save (and a failed save never durable).
#include "checkpoint/burst_buffer_store.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "checkpoint/drain_engine.h"
#include "checkpoint/manifest.h"
#include "storage/counting_env.h"
#include "storage/fault_injection_env.h"
#include "storage/tier_env.h"
#include "support/expect_error.h"
#include "support/files.h"
#include "support/test_support.h"
#include "unit/checkpoint/burst_buffer_fixture.h"
#include "unit/checkpoint/model_fixtures.h"
#include "util/error.h"
#include "util/file_names.h"

namespace dlbench::checkpoint {
namespace {

namespace fs = std::filesystem;
using storage::Fault;
using storage::FaultInjectionEnv;
using storage::FaultOp;
using storage::PosixEnv;

TEST_F(BurstBufferStoreTest, SaveReturnsOnTheFastTierThenDrainsAndEvicts) {
  auto store = make(PosixEnv());
  EXPECT_TRUE(store->resumed().empty());
  const StoreOpResult saved = store->save("global_epoch1_step1", plan_);
  EXPECT_EQ(saved.tier, "nvme");
  EXPECT_EQ(saved.bytes, plan_.for_rank(0).bytes);
  EXPECT_EQ(saved.backpressure, 0.0);
  EXPECT_LE(saved.start, saved.end);
  // Complete and self-describing on the fast tier when Save returns.
  EXPECT_TRUE(fs::exists(fast("global_epoch1_step1") / file_names::kCheckpointManifest));

  const std::vector<DrainResult> drains = store->finish();
  ASSERT_EQ(drains.size(), 1u);
  EXPECT_EQ(drains[0].name, "global_epoch1_step1");
  EXPECT_EQ(drains[0].bytes, plan_.for_rank(0).bytes);
  EXPECT_LE(saved.start, drains[0].start);  // the drain may start before Save returns
  EXPECT_LE(drains[0].start, drains[0].end);
  EXPECT_LE(drains[0].end, drains[0].durable_at);
  expect_durable("global_epoch1_step1");
  EXPECT_FALSE(fs::exists(fast("global_epoch1_step1"))) << "evicted, folder removed";
  EXPECT_TRUE(fs::exists(dir_ / "bb")) << "the tier's own folder stays";

  const StoreOpResult loaded = store->load("global_epoch1_step1", plan_, 0);
  EXPECT_EQ(loaded.tier, "checkpoint_folder");
  EXPECT_EQ(loaded.bytes, plan_.for_rank(0).bytes);
}

// Waits for a file the drain is expected to produce. The bound only keeps a broken drain from
// hanging the test; the outcome does not depend on timing.
// Counts what the test's own thread (the trainer's, in a run) does under two folders, each in its
// own CountingEnv; other threads (drains, evictions) and other paths go straight to `base`.
class TrainerThreadCounter final : public storage::EnvWrapper {
 public:
  TrainerThreadCounter(storage::Env& base, std::string capacity, std::string fast)
      : EnvWrapper(base),
        base_(base),
        capacity_(base),
        fast_(base),
        capacity_path_(capacity),
        fast_path_(fast) {}
  storage::CountingEnv& capacity() { return capacity_; }
  storage::CountingEnv& fast() { return fast_; }

  std::unique_ptr<storage::ReadableFile> open_read(const std::string& path,
                                                   const storage::OpenOptions& options) override {
    return env_for(path).open_read(path, options);
  }
  std::unique_ptr<storage::WritableFile> create(const std::string& path,
                                                const storage::OpenOptions& options) override {
    return env_for(path).create(path, options);
  }
  std::unique_ptr<storage::WritableFile> create_for_publish(
      const std::string& path, const storage::PublishOptions& options) override {
    return env_for(path).create_for_publish(path, options);
  }
  std::unique_ptr<storage::WritableFile> open_write(const std::string& path,
                                                    const storage::OpenOptions& options) override {
    return env_for(path).open_write(path, options);
  }
  void rename(const std::string& from, const std::string& to) override {
    (&env_for(from) != &base_ ? env_for(from) : env_for(to)).rename(from, to);
  }
  void create_directories(const std::string& path) override {
    env_for(path).create_directories(path);
  }
  void remove(const std::string& path) override { env_for(path).remove(path); }
  void remove_tree(const std::string& path) override { env_for(path).remove_tree(path); }
  void for_each_entry(const std::string& path, const EntryVisitor& visit) override {
    env_for(path).for_each_entry(path, visit);
  }
  Bytes free_space(const std::string& path) override { return env_for(path).free_space(path); }
  bool exists(const std::string& path) override { return env_for(path).exists(path); }
  Bytes file_size(const std::string& path) override { return env_for(path).file_size(path); }
  void sync_directory(const std::string& path) override { env_for(path).sync_directory(path); }

 private:
  storage::Env& env_for(const std::string& path) {
    if (std::this_thread::get_id() != trainer_) return base_;
    if (path.starts_with(capacity_path_)) return capacity_;
    if (path.starts_with(fast_path_)) return fast_;
    return base_;
  }
  storage::Env& base_;
  storage::CountingEnv capacity_, fast_;
  const std::string capacity_path_, fast_path_;
  const std::thread::id trainer_ = std::this_thread::get_id();
};

// the save held the trainer on capacity-tier operations (withdrawing an earlier
// manifest, listing and removing markers: with latency or a busy file system, each a wait).
TEST_F(BurstBufferStoreTest, ASaveTouchesNothingOnTheCapacityTierFromTheTrainersThread) {
  const std::string name = "global_epoch1_step1";
  {
    auto earlier = make(PosixEnv());  // an earlier run's durable copy of the same name
    earlier->save(name, plan_);
    earlier->finish();
  }
  expect_durable(name);
  TrainerThreadCounter counter(PosixEnv(), capacity("").string(), fast("").string());
  auto store = make(counter);
  counter.capacity().reset();
  store->save(name, plan_);
  ASSERT_TRUE(
      dlbench::test::AppearsWithinAMinute(capacity(name) / plan_.for_rank(0).files.back().name));
  store->save("global_epoch1_step2", plan_);
  const storage::IoCounts touched = counter.capacity().counts();
  EXPECT_EQ(touched.opens + touched.creates + touched.stats, 0u);
  EXPECT_EQ(touched.removes + touched.renames + touched.mkdirs, 0u);
  EXPECT_EQ(touched.syncs + touched.directory_syncs + touched.writes + touched.reads, 0u);
  EXPECT_GT(counter.fast().counts().creates, 0u) << "the counter sees the trainer's thread";
  store->finish();
  expect_durable(name);
  expect_durable("global_epoch1_step2");
}

// Evicting a durable checkpoint frees its fast-tier pages: not on the caller's thread.
TEST_F(BurstBufferStoreTest, EvictionRemovesTheFilesOffTheCallersThread) {
  TrainerThreadCounter counter(PosixEnv(), capacity("").string(), fast("").string());
  auto store = make(counter);
  store->save("global_epoch1_step1", plan_);
  counter.fast().reset();
  store->finish();
  // Removes on the caller's thread: the fast-tier manifest and, once empty, the folder (through
  // the Env since it lists and removes folders). Its files, at least two, go in the background.
  ASSERT_GE(plan_.for_rank(0).files.size(), 2u);
  EXPECT_EQ(counter.fast().counts().removes, 2u) << "only the manifest and the emptied folder";
  EXPECT_FALSE(fs::exists(fast("global_epoch1_step1"))) << "files removed, then the folder";
  expect_durable("global_epoch1_step1");
}

// a drain into a checkpoint folder holding an earlier copy of the same checkpoint
// wrote new files and renamed them over the old ones, freeing the old files' pages while the next
// save was allocating its own; on tmpfs in this VM such a save ran 2-4x slower. The drain now
// overwrites the earlier copy of each file in place (same inode), and reads back verified.
TEST_F(BurstBufferStoreTest, ARerunOverwritesTheCheckpointFoldersEarlierCopyInPlace) {
  const std::string name = "global_epoch1_step1";
  {
    auto earlier = make(PosixEnv());  // an earlier run's durable copy of the same name
    earlier->save(name, plan_);
    earlier->finish();
  }
  expect_durable(name);
  std::vector<ino_t> before;
  for (const PlannedFile& f : plan_.for_rank(0).files)
    before.push_back(Inode(capacity(name) / f.name));
  auto store = make(PosixEnv());
  store->save(name, plan_);
  store->finish();
  expect_durable(name);
  for (std::size_t i = 0; i < before.size(); ++i) {
    EXPECT_EQ(Inode(capacity(name) / plan_.for_rank(0).files[i].name), before[i]);
  }
  EXPECT_EQ(store->load(name, plan_, 0).tier, "checkpoint_folder");  // verified content
}

TEST_F(BurstBufferStoreTest, TheDrainOfTheFirstFileStartsBeforeTheSaveReturns) {
  const PlannedFiles files = plan_.for_rank(0).files;
  ASSERT_GE(files.size(), 2u);
  const std::string name = "global_epoch1_step1";
  // The writer holds back its last file until the first one is on the capacity side: a drain
  // that waited for the whole save would never get there.
  bool first_drained_before_last_written = false;
  tuning_.on_file_written = [&](const std::string& file) {
    if (file == files.back().name) {
      first_drained_before_last_written =
          dlbench::test::AppearsWithinAMinute(capacity(name) / files.front().name);
    }
  };
  auto store = make(PosixEnv());
  store->save(name, plan_);
  EXPECT_TRUE(first_drained_before_last_written);
  const std::vector<DrainResult> drains = store->finish();
  ASSERT_EQ(drains.size(), 1u);
  EXPECT_EQ(drains[0].bytes, plan_.for_rank(0).bytes);
  expect_durable(name);
}

TEST_F(BurstBufferStoreTest, ASaveThatFailsAfterSomeFilesWereDrainedIsNeverDurable) {
  const PlannedFiles files = plan_.for_rank(0).files;
  ASSERT_GE(files.size(), 2u);
  const std::string name = "global_epoch1_step1";
  // The last file cannot be created on the fast tier; the first is drained before that.
  FaultInjectionEnv faulty(PosixEnv());
  faulty.inject(Fault(FaultOp::kCreate)
                    .error(ENOSPC)
                    .on_paths_containing("bb/" + name + "/." + files.back().name));
  bool first_drained = false;
  tuning_.on_file_written = [&](const std::string& file) {
    if (file == files.front().name)
      first_drained = dlbench::test::AppearsWithinAMinute(capacity(name) / file);
  };
  auto store = make(faulty);
  dlbench::test::ExpectError([&] { store->save(name, plan_); }, ExitCode::kIo,
                             {"No space left on device"});
  EXPECT_TRUE(first_drained);
  EXPECT_EQ(faulty.injected(), 1u);
  // The cancelled drain is not reported again: the save already failed and said why.
  EXPECT_TRUE(store->finish().empty());
  EXPECT_FALSE(fs::exists(fast(name) / file_names::kCheckpointManifest));
  EXPECT_FALSE(fs::exists(capacity(name) / file_names::kCheckpointManifest));
  for (const PlannedFile& f : files) {
    EXPECT_FALSE(fs::exists(capacity(name) / f.name)) << "drained copy left behind: " << f.name;
  }
  if (fs::exists(capacity(name))) {
    for (const auto& entry : fs::directory_iterator(capacity(name))) {
      EXPECT_FALSE(IsDrainMarkerName(entry.path().filename().string())) << entry.path();
    }
  }
  // Nothing complete on the fast tier, so nothing for a later run to resume.
  EXPECT_TRUE(make(PosixEnv())->resumed().empty());
}

TEST_F(BurstBufferStoreTest, LoadPrefersTheFastTierThenTheCheckpointFolderElseFails) {
  config_.checkpoint.burst_buffer->evict_after_drain = false;
  auto store = make(PosixEnv());
  store->save("global_epoch1_step1", plan_);
  EXPECT_EQ(store->load("global_epoch1_step1", plan_, 0).tier, "nvme");
  ASSERT_EQ(store->finish().size(), 1u);
  expect_durable("global_epoch1_step1");
  EXPECT_EQ(store->load("global_epoch1_step1", plan_, 0).tier, "nvme") << "kept: not evicted";

  fs::remove(fast("global_epoch1_step1") / file_names::kCheckpointManifest);
  EXPECT_EQ(store->load("global_epoch1_step1", plan_, 0).tier, "checkpoint_folder");

  fs::remove(capacity("global_epoch1_step1") / file_names::kCheckpointManifest);
  dlbench::test::ExpectError([&] { store->load("global_epoch1_step1", plan_, 0); }, ExitCode::kIo,
                             {"neither complete on tier nvme"});
}

TEST_F(BurstBufferStoreTest, LoadOfAnEvictedCheckpointReadsTheCheckpointFolderWithVerify) {
  auto store = make(PosixEnv());
  store->save("global_epoch1_step1", plan_);
  store->save("global_epoch1_step2", plan_);
  store->finish();
  // Corrupt one byte of the durable copy: verify must catch it, so the load really read it.
  const fs::path victim = capacity("global_epoch1_step2") / plan_.for_rank(0).files.back().name;
  {
    auto file = PosixEnv().open_write(victim.string());
    file->write_at(10, "?", 1);
    file->close();
  }
  EXPECT_EQ(store->load("global_epoch1_step1", plan_, 0).tier, "checkpoint_folder");
  EXPECT_THROW(store->load("global_epoch1_step2", plan_, 0), Error);
}

struct CapacityFault {
  FaultOp op;
  int error;
  const char* operation;  // as the message names it
  const char* reason;     // strerror
};

class DrainFaultTest : public BurstBufferStoreTest,
                       public ::testing::WithParamInterface<CapacityFault> {};

TEST_P(DrainFaultTest, FailedDrainIsNeverDurableAndKeepsTheFastCopy) {
  FaultInjectionEnv faulty(PosixEnv());
  faulty.inject(
      Fault(GetParam().op).nth(2).error(GetParam().error).on_paths_containing("pfs/ckpt"));
  auto store = make(faulty);
  store->save("global_epoch1_step1", plan_);
  // finish() must fail: the drain failed.
  dlbench::test::ExpectError([&] { store->finish(); }, ExitCode::kIo,
                             {"checkpoint global_epoch1_step1 is not durable", GetParam().operation,
                              capacity("global_epoch1_step1").string() + "/", GetParam().reason});
  EXPECT_EQ(faulty.injected(), 1u);
  EXPECT_FALSE(fs::exists(capacity("global_epoch1_step1") / file_names::kCheckpointManifest));
  EXPECT_TRUE(fs::exists(fast("global_epoch1_step1") / file_names::kCheckpointManifest))
      << "not evicted";
  for (const PlannedFile& f : plan_.for_rank(0).files) {
    EXPECT_EQ(fs::file_size(fast("global_epoch1_step1") / f.name), f.bytes);
  }
}

INSTANTIATE_TEST_SUITE_P(
    CapacitySide, DrainFaultTest,
    ::testing::Values(CapacityFault{FaultOp::kWrite, ENOSPC, "write", "No space left on device"},
                      CapacityFault{FaultOp::kSync, EIO, "fsync", "Input/output error"},
                      CapacityFault{FaultOp::kCreate, EIO, "create", "Input/output error"}),
    [](const auto& param) { return std::string(storage::ToString(param.param.op)); });

TEST_F(BurstBufferStoreTest, AnInterruptedDrainIsResumedByTheNextStore) {
  const std::string name = "global_epoch2_step4";
  {
    // The drain dies after one file: the second file's create fails (the first create on the
    // capacity side is the content marker's).
    FaultInjectionEnv faulty(PosixEnv());
    faulty.inject(Fault(FaultOp::kCreate).nth(3).on_paths_containing("pfs/ckpt").keep_failing());
    auto store = make(faulty);
    store->save(name, plan_);
    EXPECT_THROW(store->finish(), Error);
  }
  const RankPlan mine = plan_.for_rank(0);
  ASSERT_GE(mine.files.size(), 2u);
  const fs::path first = capacity(name) / mine.files.front().name;
  EXPECT_TRUE(fs::exists(first));
  EXPECT_FALSE(fs::exists(capacity(name) / file_names::kCheckpointManifest));
  const auto first_written = fs::last_write_time(first);
  // A file under its final name that the drain did not complete (here of the wrong size) is
  // copied again.
  {
    auto junk = PosixEnv().create((capacity(name) / mine.files.back().name).string());
    junk->append("junk", 4);
    junk->close();
  }

  auto store = make(PosixEnv());
  ASSERT_EQ(store->resumed(), std::vector<std::string>{name});
  const std::vector<DrainResult> drains = store->finish();
  ASSERT_EQ(drains.size(), 1u);
  EXPECT_EQ(drains[0].name, name);
  // The first file, complete on the capacity tier, is not copied again (it was).
  EXPECT_EQ(drains[0].bytes, mine.bytes - mine.files.front().bytes);
  EXPECT_EQ(fs::last_write_time(first), first_written);
  EXPECT_GT(drains[0].durable_at, 0.0);
  expect_durable(name);
  EXPECT_FALSE(fs::exists(fast(name)));
  EXPECT_EQ(store->load(name, plan_, 0).tier, "checkpoint_folder");  // verify: every byte right

  // Nothing is left to resume.
  EXPECT_TRUE(make(PosixEnv())->resumed().empty());
}

// Size alone does not make a file complete: a durable checkpoint of the same name and sizes but
// other bytes (another content seed) is saved again and its drain interrupted after one file;
// the resumed drain copies every file the interrupted one did not complete, whatever its size.
TEST_F(BurstBufferStoreTest, AResumedDrainRecopiesAnEarlierSaveOfTheSameSizeAndOtherBytes) {
  const std::string name = "global_epoch2_step4";
  config_.train.seed = 1;
  {
    auto store = make(PosixEnv());
    store->save(name, plan_);
    store->finish();
  }
  expect_durable(name);
  config_.train.seed = 2;
  const RankPlan mine = plan_.for_rank(0);
  {
    // The last file's copy (over the earlier one, in place) fails.
    FaultInjectionEnv faulty(PosixEnv());
    faulty.inject(Fault(FaultOp::kWrite)
                      .on_paths_containing("pfs/ckpt/" + name + "/." + mine.files.back().name)
                      .keep_failing());
    auto store = make(faulty);
    store->save(name, plan_);
    EXPECT_THROW(store->finish(), Error);
  }
  auto store = make(PosixEnv());
  ASSERT_EQ(store->resumed(), std::vector<std::string>{name});
  const std::vector<DrainResult> drains = store->finish();
  ASSERT_EQ(drains.size(), 1u);
  EXPECT_LT(drains[0].bytes, mine.bytes);  // the completed first file is kept
  expect_durable(name);
  EXPECT_EQ(store->load(name, plan_, 0).tier, "checkpoint_folder");  // verify: seed 2's bytes
}

TEST_F(BurstBufferStoreTest, AFastTierThatCannotBeListedFailsTheStoreNamingIt) {
  // Resume lists the fast tier through the Env (it once used std::filesystem and ignored errors).
  FaultInjectionEnv faulty(PosixEnv());
  faulty.inject(Fault(FaultOp::kListDirectory).error(EACCES).on_paths_containing("bb"));
  dlbench::test::ExpectError([&] { make(faulty); }, ExitCode::kIo,
                             {"list " + (dir_ / "bb").string()});
  EXPECT_EQ(faulty.attempts(FaultOp::kListDirectory), 1u);
}

TEST_F(BurstBufferStoreTest, AStoreDestroyedMidDrainLeavesAResumableCheckpoint) {
  GateClock gate;
  config_.storage.tiers[1].latency = 0.001;  // every capacity-side operation waits at the gate
  clock_ = &gate;
  {
    auto store = make(PosixEnv());
    store->save("global_epoch1_step1", plan_);
    // The drain is stuck at the gate. The destructor stops it, but must first get the thread
    // back from its sleep, so the gate opens a little later (if the drain then wins the race and
    // completes, the checkpoint is simply durable: both outcomes are checked below).
    std::thread opener([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      gate.open();
    });
    store.reset();
    opener.join();  // before `gate` goes: the opener may still be inside its notify_all()
  }
  const bool durable =
      fs::exists(capacity("global_epoch1_step1") / file_names::kCheckpointManifest);
  auto store = make(PosixEnv());
  EXPECT_EQ(store->resumed().size(), durable ? 0u : 1u);
  store->finish();
  expect_durable("global_epoch1_step1");
}

TEST_F(BurstBufferStoreTest, MaxPendingCheckpointsMakesTheNextSaveWaitAndReportIt) {
  GateClock gate;
  config_.storage.tiers[1].latency = 0.001;
  config_.checkpoint.burst_buffer->max_pending_checkpoints = 1;
  clock_ = &gate;
  bool waited = false;
  tuning_.on_backpressure = [&] {
    waited = true;
    gate.open();  // the first drain may finish only once the second save is waiting
  };
  auto store = make(PosixEnv());
  const StoreOpResult first = store->save("global_epoch1_step1", plan_);
  EXPECT_EQ(first.backpressure, 0.0);
  const StoreOpResult second = store->save("global_epoch1_step2", plan_);
  EXPECT_TRUE(waited);
  EXPECT_GT(second.backpressure, 0.0);
  EXPECT_LE(second.backpressure, second.end - second.start);
  // The wait lasted until the first checkpoint was durable.
  EXPECT_TRUE(fs::exists(capacity("global_epoch1_step1") / file_names::kCheckpointManifest));
  EXPECT_EQ(store->finish().size(), 2u);
  expect_durable("global_epoch1_step2");
}

TEST_F(BurstBufferStoreTest, TierCapacityMakesTheNextSaveWait) {
  GateClock gate;
  config_.storage.tiers[1].latency = 0.001;
  config_.storage.tiers[0].capacity = plan_.for_rank(0).bytes * 3 / 2;  // room for one
  config_.checkpoint.burst_buffer->max_pending_checkpoints = 10;
  clock_ = &gate;
  tuning_.on_backpressure = [&] { gate.open(); };
  auto store = make(PosixEnv());
  EXPECT_EQ(store->save("global_epoch1_step1", plan_).backpressure, 0.0);
  EXPECT_GT(store->save("global_epoch1_step2", plan_).backpressure, 0.0);
  store->finish();

  config_.storage.tiers[0].capacity = plan_.for_rank(0).bytes - 1;
  auto small = make(PosixEnv());
  dlbench::test::ExpectError([&] { small->save("global_epoch1_step3", plan_); }, ExitCode::kUsage,
                             {"more than its capacity"});
}

TEST_F(BurstBufferStoreTest, AConfigurationValidationRefusesIsAnInternalError) {
  auto internal_error = [&](const config::Config& config, const std::string& fragment) {
    dlbench::test::ExpectError(
        [&] { BurstBufferStore store(config, dlbench::test::World(), PosixEnv(), 0.0, tuning_); },
        ExitCode::kInternal, {fragment});
  };
  // The tier, drain_threads, the overlap with the checkpoint folder and max_pending_checkpoints
  // are rules of config::Validate (tests/unit/config/storage_rules_test.cpp): a store built from
  // a configuration that breaks them was built from one that never passed it.
  config::Config c = config_;
  c.checkpoint.burst_buffer->drain_threads = 0;
  internal_error(c, "checkpoint.burst_buffer.drain_threads");
  c = config_;
  c.checkpoint.burst_buffer->tier = "elsewhere";
  internal_error(c, "is not a storage.tiers entry");
  c = config_;
  c.checkpoint.burst_buffer.reset();
  internal_error(c, "checkpoint.burst_buffer is not set");
}

}  // namespace
}  // namespace dlbench::checkpoint
