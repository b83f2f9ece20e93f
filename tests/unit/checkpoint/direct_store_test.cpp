// DirectStore on one rank: saves write exactly the planned files and a manifest, loads read them
// back (and verify them), fsync is really issued when asked, and injected faults end in an error
// that names the path and the operation, with no manifest left behind.
#include "checkpoint/direct_store.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <source_location>
#include <string>

#include "checkpoint/checkpoint_store.h"
#include "checkpoint/manifest.h"
#include "storage/counting_env.h"
#include "storage/fault_injection_env.h"
#include "support/expect_error.h"
#include "support/files.h"
#include "support/test_support.h"
#include "unit/checkpoint/model_fixtures.h"
#include "util/error.h"
#include "util/file_names.h"

namespace dlbench::checkpoint {
namespace {

namespace fs = std::filesystem;
using storage::CountingEnv;
using storage::Fault;
using storage::FaultInjectionEnv;
using storage::FaultOp;
using storage::PosixEnv;

constexpr const char* kName = "global_epoch1_step1";

// ZeRO 1, TP = PP = 1 on one rank: model_0_model_states.pt and one optimizer file.
CheckpointPlan OneRankPlan() {
  return CheckpointPlan(test::Transformer(4, 100, 32, 64, 4, 2, 1, 1, 1), test::Default(), 1);
}

config::CheckpointConfig Settings(const dlbench::test::TempDir& dir) {
  config::CheckpointConfig c;
  c.checkpoint_folder = dir.path().string();
  return c;
}

// The message of the Error `body` throws, after checking that it is an agreed I/O error.
std::string IoFailure(const std::function<void()>& body,
                      std::source_location where = std::source_location::current()) {
  return dlbench::test::ExpectCollectiveError(body, ExitCode::kIo, {}, where);
}

TEST(DirectStore, SaveWritesThePlannedFilesThenTheManifest) {
  dlbench::test::TempDir dir;
  CountingEnv env(PosixEnv());
  const CheckpointPlan plan = OneRankPlan();
  DirectStore store(Settings(dir), 7, dlbench::test::World(), env, 0);
  const StoreOpResult result = store.save(kName, plan);

  const RankPlan mine = plan.for_rank(0);
  std::map<std::string, Bytes> expected;
  for (const PlannedFile& f : mine.files) expected[f.name] = f.bytes;
  std::map<std::string, Bytes> listing = dlbench::test::FileSizes(dir / kName);
  ASSERT_EQ(listing.count(file_names::kCheckpointManifest), 1u);
  listing.erase(file_names::kCheckpointManifest);
  EXPECT_EQ(listing, expected);
  EXPECT_EQ(result.name, kName);
  EXPECT_EQ(result.tier, "checkpoint_folder");
  EXPECT_EQ(result.bytes, mine.bytes);
  EXPECT_LE(result.start, result.end);
  EXPECT_GE(env.counts().mkdirs, 1u);   // the folder is created by the save
  EXPECT_EQ(env.counts().syncs, 0u);    // checkpoint.fsync is off
  EXPECT_TRUE(store.finish().empty());  // durable already
  EXPECT_EQ(ReadManifest(env, (dir / kName).string()).files.size(), mine.files.size());
}

TEST(DirectStore, FsyncIsIssuedForEveryFileAndTheManifest) {
  dlbench::test::TempDir dir;
  CountingEnv env(PosixEnv());
  config::CheckpointConfig settings = Settings(dir);
  settings.fsync = true;
  const CheckpointPlan plan = OneRankPlan();
  DirectStore store(settings, 7, dlbench::test::World(), env, 0);
  store.save(kName, plan);
  EXPECT_EQ(env.counts().syncs, plan.for_rank(0).files.size() + 1);
  EXPECT_GE(env.counts().directory_syncs, env.counts().syncs);  // each rename made durable
}

TEST(DirectStore, LoadReadsEveryByteBackAndVerifiesIt) {
  dlbench::test::TempDir dir;
  CountingEnv env(PosixEnv());
  config::CheckpointConfig settings = Settings(dir);
  settings.verify = true;
  const CheckpointPlan plan = OneRankPlan();
  DirectStore store(settings, 7, dlbench::test::World(), env, 0);
  store.save(kName, plan);
  env.reset();
  const StoreOpResult result = store.load(kName, plan, 0);
  const Bytes manifest = fs::file_size(dir / kName / file_names::kCheckpointManifest);
  EXPECT_EQ(result.bytes, plan.for_rank(0).bytes);
  EXPECT_EQ(env.counts().bytes_read, plan.for_rank(0).bytes + manifest);
  EXPECT_EQ(env.counts().bytes_written, 0u);
  EXPECT_LE(result.start, result.end);
}

TEST(DirectStore, VerifyFindsAChangedByteAndNamesFileAndOffset) {
  dlbench::test::TempDir dir;
  config::CheckpointConfig settings = Settings(dir);
  const CheckpointPlan plan = OneRankPlan();
  const PlannedFile victim = plan.for_rank(0).files.back();
  ASSERT_GT(victim.bytes, 1000u);
  {
    DirectStore store(settings, 7, dlbench::test::World(), PosixEnv(), 0);
    store.save(kName, plan);
  }
  const fs::path path = dir / kName / victim.name;
  {
    std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
    file.seekg(1000);
    const char old = static_cast<char>(file.get());
    file.seekp(1000);
    file.put(static_cast<char>(old ^ 0x5a));
  }
  // Without verify only sizes are checked.
  DirectStore unverified(settings, 7, dlbench::test::World(), PosixEnv(), 0);
  EXPECT_EQ(unverified.load(kName, plan, 0).bytes, plan.for_rank(0).bytes);
  settings.verify = true;
  DirectStore verifying(settings, 7, dlbench::test::World(), PosixEnv(), 0);
  const std::string message = IoFailure([&] { verifying.load(kName, plan, 0); });
  EXPECT_NE(message.find(path.string()), std::string::npos) << message;
  EXPECT_NE(message.find("offset 1000"), std::string::npos) << message;
}

TEST(DirectStore, LoadRefusesACheckpointWithoutManifest) {
  dlbench::test::TempDir dir;
  const CheckpointPlan plan = OneRankPlan();
  DirectStore store(Settings(dir), 7, dlbench::test::World(), PosixEnv(), 0);
  std::string message = IoFailure([&] { store.load(kName, plan, 0); });
  EXPECT_NE(message.find("incomplete checkpoint"), std::string::npos) << message;
  store.save(kName, plan);
  fs::remove(dir / kName / file_names::kCheckpointManifest);
  message = IoFailure([&] { store.load(kName, plan, 0); });
  EXPECT_NE(message.find((dir / kName).string()), std::string::npos) << message;
  EXPECT_NE(message.find("incomplete checkpoint"), std::string::npos) << message;
}

TEST(DirectStore, LoadOfAnotherRanksFilesNeedsThatRankInThePlan) {
  dlbench::test::TempDir dir;
  const CheckpointPlan plan = OneRankPlan();
  DirectStore store(Settings(dir), 7, dlbench::test::World(), PosixEnv(), 0);
  store.save(kName, plan);
  // Rank 1 of a one-rank plan.
  dlbench::test::ExpectCollectiveError([&] { store.load(kName, plan, 1); }, ExitCode::kUsage);
}

struct FaultCase {
  FaultOp op;
  int error;
  const char* operation;  // as the message names it
  const char* strerror;
};

class DirectStoreFault : public ::testing::TestWithParam<FaultCase> {};

TEST_P(DirectStoreFault, NamesPathAndOperationAndLeavesNoManifest) {
  const FaultCase c = GetParam();
  dlbench::test::TempDir dir;
  FaultInjectionEnv env(PosixEnv());
  config::CheckpointConfig settings = Settings(dir);
  settings.fsync = true;
  const CheckpointPlan plan = OneRankPlan();
  DirectStore store(settings, 7, dlbench::test::World(), env, 0);
  // The second matching operation on a checkpoint file (not the manifest) fails.
  env.inject(Fault(c.op).nth(2).error(c.error).on_paths_containing("_states.pt"));
  const std::string message = IoFailure([&] { store.save(kName, plan); });
  EXPECT_EQ(env.injected(), 1u);
  EXPECT_NE(message.find(c.operation), std::string::npos) << message;
  EXPECT_NE(message.find((dir / kName).string() + "/"), std::string::npos) << message;
  EXPECT_NE(message.find("_states.pt"), std::string::npos) << message;
  EXPECT_NE(message.find(c.strerror), std::string::npos) << message;
  EXPECT_FALSE(IsCheckpointComplete(env, (dir / kName).string()));
}

INSTANTIATE_TEST_SUITE_P(
    WriteAndFsync, DirectStoreFault,
    ::testing::Values(FaultCase{FaultOp::kWrite, ENOSPC, "write", "No space left on device"},
                      FaultCase{FaultOp::kWrite, EIO, "write", "Input/output error"},
                      FaultCase{FaultOp::kSync, EIO, "fsync", "Input/output error"},
                      FaultCase{FaultOp::kSync, ENOSPC, "fsync", "No space left on device"}));

TEST(DirectStore, AFailedResaveWithdrawsTheEarlierManifest) {
  dlbench::test::TempDir dir;
  FaultInjectionEnv env(PosixEnv());
  const CheckpointPlan plan = OneRankPlan();
  DirectStore store(Settings(dir), 7, dlbench::test::World(), env, 0);
  store.save(kName, plan);
  ASSERT_TRUE(IsCheckpointComplete(env, (dir / kName).string()));
  env.inject(Fault(FaultOp::kWrite).error(ENOSPC).on_paths_containing("_states.pt"));
  IoFailure([&] { store.save(kName, plan); });
  // Files of the first save may remain, but nothing vouches for them any more.
  EXPECT_FALSE(IsCheckpointComplete(env, (dir / kName).string()));
}

TEST(DirectStore, RankSyncStillCompletesTheCheckpoint) {
  dlbench::test::TempDir dir;
  config::CheckpointConfig settings = Settings(dir);
  settings.rank_sync = true;
  const CheckpointPlan plan = OneRankPlan();
  DirectStore store(settings, 7, dlbench::test::World(), PosixEnv(), 0);
  const StoreOpResult save = store.save(kName, plan);
  EXPECT_LE(save.start, save.end);
  EXPECT_EQ(store.load(kName, plan, 0).bytes, save.bytes);
}

TEST(MakeCheckpointStore, DirectByDefaultOnTheCheckpointFolder) {
  dlbench::test::TempDir dir;
  config::Config config;
  config.checkpoint.checkpoint_folder = (dir / "ckpt").string();
  config.model = test::Transformer(4, 100, 32, 64, 4, 2, 1, 1, 1);
  const CheckpointPlan plan(config.model, config.checkpoint, 1);
  auto store = MakeCheckpointStore(config, dlbench::test::World(), PosixEnv(), 0);
  store->save(kName, plan);
  EXPECT_TRUE(IsCheckpointComplete(PosixEnv(), (dir / "ckpt" / kName).string()));
}

}  // namespace
}  // namespace dlbench::checkpoint
