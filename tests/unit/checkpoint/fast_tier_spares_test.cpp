// The burst buffer's spare files on the fast tier: evicted checkpoints' files and preallocated
// ones are overwritten in place by later saves (same inodes), the content read back is the new
// save's, the pool stays within max_pending_checkpoints and the tier's capacity, and Finish
// leaves nothing behind.
#include "checkpoint/fast_tier_spares.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "checkpoint/burst_buffer_store.h"
#include "checkpoint/manifest.h"
#include "storage/aligned_buffer.h"
#include "storage/atomic_file.h"
#include "storage/env_wrapper.h"
#include "storage/fault_injection_env.h"
#include "support/expect_error.h"
#include "unit/checkpoint/burst_buffer_fixture.h"
#include "util/error.h"
#include "util/file_names.h"
#include "util/sink.h"

namespace dlbench::checkpoint {
namespace {

using storage::PosixEnv;

void WriteText(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

PlannedFiles Files(const std::vector<std::pair<std::string, Bytes>>& sizes) {
  PlannedFiles files;
  for (const auto& [name, bytes] : sizes) {
    FileRun file;
    file.name = name;
    file.bytes = bytes;
    files.add(file);
  }
  return files;
}

std::set<ino_t> InodesUnder(const fs::path& folder) {
  std::set<ino_t> inodes;
  for (const auto& entry : fs::recursive_directory_iterator(folder)) {
    if (entry.is_regular_file()) inodes.insert(Inode(entry.path()));
  }
  return inodes;
}

TEST(FastTierSpares, TakesTheSmallestSpareLargeEnoughAndMovesItToThePartialName) {
  dlbench::test::TempDir dir;
  FastTierSpares spares(PosixEnv(), (dir.path() / "spare").string());
  storage::AlignedBuffer buffer(4096);
  spares.preallocate(Files({{"x.pt", 100}, {"y.pt", 5000}}), 1, buffer);
  EXPECT_EQ(spares.sets(), 1);
  EXPECT_EQ(spares.bytes(), 5100u);
  fs::create_directories(dir.path() / "ckpt");
  const std::vector<bool> taken = spares.take((dir.path() / "ckpt").string(),
                                              Files({{"a.pt", 4000}, {"b.pt", 50}, {"c.pt", 1}}));
  EXPECT_EQ(taken, (std::vector<bool>{true, true, false})) << "two spares for three files";
  EXPECT_EQ(fs::file_size(storage::PartialPathFor((dir.path() / "ckpt" / "a.pt").string())), 5000u);
  EXPECT_EQ(fs::file_size(storage::PartialPathFor((dir.path() / "ckpt" / "b.pt").string())), 100u);
  EXPECT_EQ(spares.sets(), 0);
  EXPECT_EQ(spares.bytes(), 0u);
  EXPECT_EQ(spares.take((dir.path() / "ckpt").string(), Files({{"d.pt", 1}})),
            std::vector<bool>{false});
}

TEST(FastTierSpares, ReleaseHandsBackEveryFile) {
  dlbench::test::TempDir dir;
  FastTierSpares spares(PosixEnv(), (dir.path() / "spare").string());
  EXPECT_FALSE(spares.created()) << "no folder before the first spare";
  WriteText(dir.path() / "old.pt", std::string(300, 'x'));
  spares.give(dir.path().string(), Files({{"old.pt", 300}}));
  EXPECT_TRUE(spares.created());
  EXPECT_FALSE(fs::exists(dir.path() / "old.pt"));
  const auto next = spares.release();
  const std::optional<std::string> path = next();
  ASSERT_TRUE(path);
  EXPECT_EQ(fs::file_size(*path), 300u);
  EXPECT_FALSE(next()) << "one spare";
  EXPECT_EQ(spares.sets(), 0);
}

// Spares of one size are held as runs of numbers: a set of many files takes a few runs, and each
// file comes back (the smallest large enough, the oldest of its size first) exactly once.
TEST(FastTierSpares, TakesEveryGivenFileOnceInTheOrderGiven) {
  dlbench::test::TempDir dir;
  FastTierSpares spares(PosixEnv(), (dir.path() / "spare").string());
  std::vector<std::pair<std::string, Bytes>> given;
  for (int i = 0; i < 5; ++i) given.push_back({"l" + std::to_string(i) + ".pt", 10});
  given.push_back({"big.pt", 20});
  for (const auto& [name, bytes] : given) WriteText(dir.path() / name, std::string(bytes, 'x'));
  spares.give(dir.path().string(), Files(given));
  EXPECT_EQ(spares.bytes(), 70u);
  fs::create_directories(dir.path() / "ckpt");
  const std::vector<bool> taken = spares.take((dir.path() / "ckpt").string(),
                                              Files({{"a.pt", 10}, {"b.pt", 15}, {"c.pt", 10}}));
  EXPECT_EQ(taken, (std::vector<bool>{true, true, true}));
  EXPECT_EQ(fs::file_size(storage::PartialPathFor((dir.path() / "ckpt" / "b.pt").string())), 20u)
      << "the smallest spare large enough";
  EXPECT_EQ(spares.bytes(), 30u);
  std::set<std::string> left;
  const auto next = spares.release();
  while (const std::optional<std::string> path = next()) {
    EXPECT_TRUE(left.insert(*path).second) << *path << " given twice";
    EXPECT_EQ(fs::file_size(*path), 10u);
  }
  EXPECT_EQ(left.size(), 3u);
}

class SparesStoreTest : public BurstBufferStoreTest {
 protected:
  SparesStoreTest() {
    // The plan a store makes from the configuration (preallocate) is the tests' plan_.
    config_.model = test::Transformer(2, 100, 32, 64, 4, 2, 1, 1, 1);
  }
  fs::path spare_root() const { return dir_ / "bb" / file_names::kSpareFolder; }
};

TEST_F(SparesStoreTest, PreallocatedSpaceIsWhatTheSavesOverwrite) {
  config_.checkpoint.burst_buffer->preallocate = config::Preallocate::kYes;
  config_.checkpoint.burst_buffer->max_pending_checkpoints = 2;
  // The drains wait at the gate until the loads below are done: a drain that finished first
  // evicted the fast copy, and the load came from the capacity tier (seen under ASan, whose
  // saves are slow enough).
  GateClock gate;
  config_.storage.tiers[1].latency = 0.001;
  clock_ = &gate;
  auto store = make(PosixEnv());
  const std::set<ino_t> preallocated = InodesUnder(spare_root());
  EXPECT_EQ(preallocated.size(), 2 * plan_.for_rank(0).files.size()) << "two checkpoints' files";
  store->save("global_epoch1_step1", plan_);
  store->save("global_epoch1_step2", plan_);
  for (const char* name : {"global_epoch1_step1", "global_epoch1_step2"}) {
    for (const PlannedFile& f : plan_.for_rank(0).files) {
      EXPECT_TRUE(preallocated.contains(Inode(fast(name) / f.name))) << name << "/" << f.name;
      EXPECT_EQ(fs::file_size(fast(name) / f.name), f.bytes) << "cut to size";
    }
    EXPECT_EQ(store->load(name, plan_, 0).tier, "nvme") << "verified content";
  }
  EXPECT_TRUE(InodesUnder(spare_root()).empty()) << "both sets taken";
  gate.open();
  store->finish();
  expect_durable("global_epoch1_step1");
  expect_durable("global_epoch1_step2");
  EXPECT_FALSE(fs::exists(spare_root())) << "Finish removes the spares' folders";
  EXPECT_FALSE(fs::exists(fast("global_epoch1_step1")));
}

TEST_F(SparesStoreTest, AnEvictedCheckpointsFilesAreOverwrittenByTheNextSave) {
  // The first drain runs; the second waits at the gate until its checkpoint was loaded from
  // the fast tier (a drain that finished first evicted it).
  GateClock gate;
  config_.storage.tiers[1].latency = 0.001;
  clock_ = &gate;
  gate.open();
  auto store = make(PosixEnv());
  const std::string first = "global_epoch1_step1";
  store->save(first, plan_);
  std::set<ino_t> first_files;
  for (const PlannedFile& f : plan_.for_rank(0).files)
    first_files.insert(Inode(fast(first) / f.name));
  // A Load collects finished drains and evicts what is durable, then reads where the checkpoint
  // is: once it reads the checkpoint folder, the first save's files are spares. (The bound only
  // keeps a broken drain from hanging the test.)
  bool evicted = false;
  for (int i = 0; i < 600 && !evicted; ++i) {
    evicted = store->load(first, plan_, 0).tier == "checkpoint_folder";
    if (!evicted) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ASSERT_TRUE(evicted);
  EXPECT_FALSE(fs::exists(fast(first) / file_names::kCheckpointManifest));
  gate.close();
  store->save("global_epoch1_step2", plan_);
  std::set<ino_t> second_files;
  for (const PlannedFile& f : plan_.for_rank(0).files) {
    second_files.insert(Inode(fast("global_epoch1_step2") / f.name));
  }
  EXPECT_EQ(second_files, first_files);
  EXPECT_EQ(store->load("global_epoch1_step2", plan_, 0).tier, "nvme");
  gate.open();
  store->finish();
  expect_durable(first);
  expect_durable("global_epoch1_step2");
  EXPECT_EQ(store->load(first, plan_, 0).tier, "checkpoint_folder");
  EXPECT_FALSE(fs::exists(spare_root()));
}

TEST_F(SparesStoreTest, TheTiersCapacityBoundsThePreallocatedSets) {
  config_.checkpoint.burst_buffer->preallocate = config::Preallocate::kYes;
  config_.checkpoint.burst_buffer->max_pending_checkpoints = 4;
  config_.storage.tiers[0].capacity = plan_.for_rank(0).bytes * 5 / 2;  // room for two
  auto store = make(PosixEnv());
  EXPECT_EQ(InodesUnder(spare_root()).size(), 2 * plan_.for_rank(0).files.size());
  store->finish();
  EXPECT_FALSE(fs::exists(spare_root()));

  // Room for none: nothing is written, and the save says why.
  config_.storage.tiers[0].capacity = plan_.for_rank(0).bytes - 1;
  auto small = make(PosixEnv());
  EXPECT_FALSE(fs::exists(spare_root()));
  dlbench::test::ExpectError([&] { small->save("global_epoch1_step1", plan_); }, ExitCode::kUsage,
                             {"more than its capacity"});
}

TEST_F(SparesStoreTest, SparesARunLeftBehindAreRemovedWhenTheNextStarts) {
  WriteText(spare_root() / "0" / "7", "left by a run that stopped");
  auto store = make(PosixEnv());
  EXPECT_FALSE(fs::exists(spare_root() / "0" / "7"));
  EXPECT_TRUE(store->resumed().empty()) << "not a checkpoint";
  store->finish();
}

TEST_F(SparesStoreTest, ASaveThatFailsLeavesNoSpareUnderATemporaryName) {
  config_.checkpoint.burst_buffer->preallocate = config::Preallocate::kYes;
  config_.checkpoint.burst_buffer->max_pending_checkpoints = 1;
  const PlannedFiles files = plan_.for_rank(0).files;
  ASSERT_GE(files.size(), 2u);
  const std::string name = "global_epoch1_step1";
  // The first file fails; the spares moved for the others were never opened by the writer.
  storage::FaultInjectionEnv faulty(PosixEnv());
  faulty.inject(storage::Fault(storage::FaultOp::kCreate)
                    .error(ENOSPC)
                    .on_paths_containing("bb/" + name + "/." + files.front().name));
  auto store = make(faulty);
  dlbench::test::ExpectError([&] { store->save(name, plan_); }, ExitCode::kIo,
                             {"No space left on device"});
  EXPECT_EQ(faulty.injected(), 1u);
  for (const auto& entry : fs::directory_iterator(fast(name))) {
    EXPECT_FALSE(storage::IsPartialFileName(entry.path().filename().string())) << entry.path();
  }
  store->finish();
  EXPECT_FALSE(fs::exists(spare_root()));
}

// A POSIX tier that says it is in memory (tmpfs), with the free space a test gives it.
class InMemoryTierEnv final : public storage::EnvWrapper {
 public:
  InMemoryTierEnv(storage::Env& base, bool memory, Bytes free)
      : EnvWrapper(base), memory_(memory), free_(free) {}
  storage::Capabilities capabilities(const std::string& path) override {
    storage::Capabilities can = target().capabilities(path);
    can.memory = memory_;
    return can;
  }
  Bytes free_space(const std::string& /*path*/) override { return free_; }

 private:
  bool memory_;
  Bytes free_;
};

TEST_F(SparesStoreTest, AutoPreallocatesOnlyOnATierInMemory) {
  config_.checkpoint.burst_buffer->preallocate = config::Preallocate::kAuto;
  config_.checkpoint.burst_buffer->max_pending_checkpoints = 2;
  const std::size_t files = plan_.for_rank(0).files.size();
  InMemoryTierEnv disk(PosixEnv(), /*memory=*/false, Bytes{1} << 40);
  auto on_disk = make(disk);
  EXPECT_FALSE(fs::exists(spare_root())) << "a tier on disk: nothing preallocated";
  on_disk->finish();

  InMemoryTierEnv memory(PosixEnv(), /*memory=*/true, Bytes{1} << 40);
  auto in_memory = make(memory);
  const std::set<ino_t> preallocated = InodesUnder(spare_root());
  EXPECT_EQ(preallocated.size(), 2 * files) << "two checkpoints' files";
  in_memory->save("global_epoch1_step1", plan_);
  for (const PlannedFile& f : plan_.for_rank(0).files) {
    EXPECT_TRUE(preallocated.contains(Inode(fast("global_epoch1_step1") / f.name))) << f.name;
  }
  in_memory->finish();
  expect_durable("global_epoch1_step1");
  EXPECT_FALSE(fs::exists(spare_root()));
}

TEST_F(SparesStoreTest, AutoTakesAtMostHalfTheTiersFreeSpace) {
  config_.checkpoint.burst_buffer->preallocate = config::Preallocate::kAuto;
  config_.checkpoint.burst_buffer->max_pending_checkpoints = 4;
  const Bytes one = plan_.for_rank(0).bytes;
  sink::CapturingSink capture;
  const sink::ScopedSink scoped(capture);
  InMemoryTierEnv roomy(PosixEnv(), /*memory=*/true, one * 5);  // half holds two
  auto store = make(roomy);
  EXPECT_EQ(InodesUnder(spare_root()).size(), 2 * plan_.for_rank(0).files.size());
  store->finish();
  ASSERT_EQ(capture.messages().size(), 1u);
  EXPECT_NE(capture.messages()[0].find("the files of 2 checkpoint(s)"), std::string::npos);
  EXPECT_NE(capture.messages()[0].find("auto, the tier is in memory, 2 of 4 for half its free "
                                       "space; false to skip"),
            std::string::npos)
      << capture.messages()[0];

  InMemoryTierEnv full(PosixEnv(), /*memory=*/true, one * 2 - 1);  // half holds none
  auto none = make(full);
  EXPECT_FALSE(fs::exists(spare_root()));
  ASSERT_EQ(capture.messages().size(), 2u);
  EXPECT_NE(capture.messages()[1].find("half the free space of tier nvme"), std::string::npos)
      << capture.messages()[1];
  EXPECT_NE(capture.messages()[1].find("not preallocated"), std::string::npos);
  none->save("global_epoch1_step1", plan_);  // saves as without preallocation
  none->finish();
  expect_durable("global_epoch1_step1");

  // `true` is not bounded by the free space: it was asked for.
  config_.checkpoint.burst_buffer->preallocate = config::Preallocate::kYes;
  auto asked = make(full);
  EXPECT_EQ(InodesUnder(spare_root()).size(), 4 * plan_.for_rank(0).files.size());
  asked->finish();
}

// Storage that says it can neither rename nor overwrite at offsets (an object store's answer).
class NoRenameEnv final : public storage::EnvWrapper {
 public:
  explicit NoRenameEnv(storage::Env& base) : EnvWrapper(base) {}
  storage::Capabilities capabilities(const std::string&) override {
    return storage::Capabilities::ObjectStore("S3");
  }
};

TEST_F(SparesStoreTest, PreallocateOnATierThatCannotOverwriteInPlaceIsRefused) {
  config_.checkpoint.burst_buffer->preallocate = config::Preallocate::kYes;
  NoRenameEnv env(PosixEnv());
  dlbench::test::ExpectError([&] { make(env); }, ExitCode::kUsage,
                             {"checkpoint.burst_buffer.preallocate: tier nvme",
                              "cannot rename files and overwrite them in place"});
  EXPECT_FALSE(fs::exists(spare_root()));
  // `auto` does not ask for it: such a tier simply gets no spares.
  config_.checkpoint.burst_buffer->preallocate = config::Preallocate::kAuto;
  auto store = make(env);
  EXPECT_FALSE(fs::exists(spare_root()));
  store->finish();
}

}  // namespace
}  // namespace dlbench::checkpoint
