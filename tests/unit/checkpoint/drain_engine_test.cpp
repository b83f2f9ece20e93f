// DrainEngine coordination between ranks, played by two engines in one process over shared
// folders: the finisher waits for every rank's marker, a failing rank stops it at once, a silent
// rank makes it give up after the timeout. Pipelined jobs (a DrainFeed) copy each file once it is
// ready, mark nothing drained before the commit, and clean up when their save is cancelled.
#include "checkpoint/drain_engine.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "checkpoint/manifest.h"
#include "storage/fault_injection_env.h"
#include "support/files.h"
#include "support/pending_writes_env.h"
#include "support/test_support.h"
#include "unit/checkpoint/model_fixtures.h"
#include "util/file_names.h"

namespace dlbench::checkpoint {
namespace {

namespace fs = std::filesystem;
using storage::PosixEnv;

constexpr int kRanks = 2;

// Waits for a file the drain is expected to produce. The bound only keeps a broken drain from
// hanging the test; the outcome does not depend on timing.
class DrainEngineTest : public ::testing::Test {
 protected:
  DrainEngineTest()
      : plan_(test::Transformer(2, 100, 32, 64, 4, 2, 1, 1, 1), test::Default(), kRanks) {
    WriterOptions options;
    options.buffer_bytes = 4096;
    CheckpointWriter writer(PosixEnv(), options);
    for (Rank r = 0; r < kRanks; ++r) writer.write_rank(fast_.string(), plan_.for_rank(r));
    WriteManifest(PosixEnv(), fast_.string(), plan_, options.content, false);
  }
  DrainJob make_job(Rank rank) const {
    DrainJob job;
    job.name = "global_epoch1_step1";
    job.fast_folder = fast_.string();
    job.capacity_folder = capacity_.string();
    job.files = plan_.for_rank(rank).files;
    job.marks = {rank};
    job.world = kRanks;
    job.finisher = rank == 0;
    job.manifest = ManifestText(ReadManifest(PosixEnv(), fast_.string()));
    job.token = "save2";
    return job;
  }
  DrainOptions options(Seconds timeout = 600) const {
    DrainOptions options;
    options.buffer_bytes = 4096;
    options.marker_timeout = timeout;
    options.poll_interval = 0.001;
    return options;
  }
  // Rank 0's part (the finisher's) drained on `env0` with `rank0_options` and, once `meanwhile`
  // returned, rank 1's on `env1`, each by an engine of its own: their outcomes, rank 0's first.
  std::vector<DrainOutcome> drain_both(storage::Env& env0, storage::Env& env1,
                                       const DrainOptions& rank0_options,
                                       const std::function<void()>& meanwhile = {}) const {
    DrainEngine rank0(env0, rank0_options);
    rank0.enqueue(make_job(0));
    if (meanwhile) meanwhile();
    std::vector<DrainOutcome> one;
    {
      DrainEngine rank1(env1, options());
      rank1.enqueue(make_job(1));
      one = rank1.wait_all();
    }
    std::vector<DrainOutcome> both = rank0.wait_all();
    both.insert(both.end(), one.begin(), one.end());
    return both;
  }

  dlbench::test::TempDir dir_;
  fs::path fast_ = dir_ / "bb" / "global_epoch1_step1";
  fs::path capacity_ = dir_ / "pfs" / "global_epoch1_step1";
  CheckpointPlan plan_;
};

TEST_F(DrainEngineTest, TheFinisherWritesTheManifestOnceEveryRankIsDrained) {
  ASSERT_FALSE(plan_.for_rank(1).files.empty());
  const std::vector<DrainOutcome> both = drain_both(PosixEnv(), PosixEnv(), options());
  ASSERT_EQ(both.size(), 2u);
  const DrainOutcome& zero = both[0];
  const DrainOutcome& one = both[1];
  EXPECT_EQ(zero.error, "");
  EXPECT_EQ(one.error, "");
  ASSERT_TRUE(zero.durable_at.has_value());
  EXPECT_FALSE(one.durable_at.has_value());
  EXPECT_GE(*zero.durable_at, one.end) << "durable only after rank 1's part";
  EXPECT_EQ(one.bytes, plan_.for_rank(1).bytes);
  const Manifest manifest = ReadManifest(PosixEnv(), capacity_.string());
  EXPECT_EQ(manifest.files.size(), plan_.summarize().files);
  for (const ManifestEntry& e : manifest.files) {
    EXPECT_EQ(fs::file_size(capacity_ / e.name), e.bytes) << e.name;
  }
  EXPECT_FALSE(fs::exists(capacity_ / DrainedMarkerName(0)));
  EXPECT_FALSE(fs::exists(capacity_ / DrainedMarkerName(1)));
}

// A drain killed mid-upload leaves its upload pending in the capacity folder, which an object
// store keeps (and bills) for good: the finisher of the next drain there aborts the uploads
// pending in it once every rank's files are drained, and counts them. No other rank asks.
TEST_F(DrainEngineTest, TheFinisherAbortsTheUploadsLeftPendingInTheCapacityFolder) {
  dlbench::test::PendingWritesEnv store0(PosixEnv(), 2);
  dlbench::test::PendingWritesEnv store1(PosixEnv(), 2);
  const std::vector<DrainOutcome> both = drain_both(store0, store1, options());
  ASSERT_EQ(both.size(), 2u);
  EXPECT_EQ(both[0].error, "");
  EXPECT_TRUE(both[0].durable_at.has_value());
  EXPECT_EQ(both[0].pending_writes_aborted, 2u);
  EXPECT_EQ(store0.asked, std::vector<std::string>{capacity_.string()});
  EXPECT_EQ(both[1].pending_writes_aborted, 0u);
  EXPECT_EQ(store1.asked, std::vector<std::string>{});
}

// The finisher looks for the other ranks' markers again after 1 ms, then ever less often up to
// poll_interval: with a fixed poll_interval, a marker written just after the first look waited a
// whole interval (50 ms per save by default, most of a small checkpoint's drain time). Here the
// interval is 60 s and rank 1 drains after rank 0 first looked: the finisher must notice its marker
// long before one interval (the bound is loose; before, the test took the whole minute).
TEST_F(DrainEngineTest, TheFinisherNoticesALateMarkerWithoutAWholePollInterval) {
  DrainOptions slow = options();
  slow.poll_interval = 60;
  const std::vector<DrainOutcome> both = drain_both(PosixEnv(), PosixEnv(), slow, [&] {
    // Rank 0 writes its own marker just before it starts looking for rank 1's.
    for (int i = 0; i < 10000 && !fs::exists(capacity_ / DrainedMarkerName(0)); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    EXPECT_TRUE(fs::exists(capacity_ / DrainedMarkerName(0)));
  });
  ASSERT_EQ(both.size(), 2u);
  EXPECT_EQ(both[0].error, "");
  ASSERT_TRUE(both[0].durable_at.has_value());
  EXPECT_LT(*both[0].durable_at - both[1].end, 20.0);
}

TEST_F(DrainEngineTest, ARankThatFailsStopsTheFinisherWithItsError) {
  storage::FaultInjectionEnv faulty(PosixEnv());
  faulty.inject(storage::Fault(storage::FaultOp::kSync).error(EIO).on_paths_containing("pfs"));
  DrainEngine rank1(faulty, options());
  rank1.enqueue(make_job(1));
  const std::vector<DrainOutcome> one = rank1.wait_all();
  ASSERT_EQ(one.size(), 1u);
  EXPECT_NE(one[0].error.find("fsync"), std::string::npos) << one[0].error;
  EXPECT_TRUE(fs::exists(capacity_ / DrainFailedMarkerName(1)));

  DrainEngine rank0(PosixEnv(), options());
  rank0.enqueue(make_job(0));
  const std::vector<DrainOutcome> zero = rank0.wait_all();
  ASSERT_EQ(zero.size(), 1u);
  EXPECT_NE(zero[0].error.find("rank 1 failed: "), std::string::npos) << zero[0].error;
  EXPECT_NE(zero[0].error.find("Input/output error"), std::string::npos) << zero[0].error;
  EXPECT_FALSE(zero[0].durable_at.has_value());
  EXPECT_FALSE(fs::exists(capacity_ / file_names::kCheckpointManifest));
}

TEST_F(DrainEngineTest, ASilentRankMakesTheFinisherGiveUpNotHang) {
  dlbench::test::PendingWritesEnv store(PosixEnv(), 1);
  DrainEngine rank0(store, options(/*timeout=*/0.05));
  rank0.enqueue(make_job(0));
  const std::vector<DrainOutcome> zero = rank0.wait_all();
  ASSERT_EQ(zero.size(), 1u);
  EXPECT_NE(zero[0].error.find("rank 1 (and 0 more) did not mark its part of global_epoch1_step1"),
            std::string::npos)
      << zero[0].error;
  EXPECT_NE(zero[0].error.find(capacity_.string()), std::string::npos) << zero[0].error;
  EXPECT_FALSE(fs::exists(capacity_ / file_names::kCheckpointManifest));
  // Rank 1's part may still be on its way: its uploads are live, not left.
  EXPECT_EQ(store.asked, std::vector<std::string>{});
}

// A marker that is there but can never be read is the finisher's error, naming the marker and the
// read, at once — not a wait until marker_timeout that ends in "did not mark its part".
TEST_F(DrainEngineTest, AMarkerThatCannotBeReadIsAnErrorNotAWait) {
  {
    DrainEngine rank1(PosixEnv(), options());
    rank1.enqueue(make_job(1));
    ASSERT_EQ(rank1.wait_all().at(0).error, "");
  }
  storage::FaultInjectionEnv faulty(PosixEnv());
  faulty.inject(storage::Fault(storage::FaultOp::kRead)
                    .on_paths_containing(DrainedMarkerName(1))
                    .keep_failing());
  DrainEngine rank0(faulty, options(/*timeout=*/5));
  rank0.enqueue(make_job(0));
  const std::vector<DrainOutcome> zero = rank0.wait_all();
  ASSERT_EQ(zero.size(), 1u);
  EXPECT_NE(zero[0].error.find("read " + (capacity_ / DrainedMarkerName(1)).string()),
            std::string::npos)
      << zero[0].error;
  EXPECT_FALSE(zero[0].durable_at.has_value());
  EXPECT_FALSE(fs::exists(capacity_ / file_names::kCheckpointManifest));
}

// Left by an earlier save of the same name (an earlier run, or litter): the capacity-side copy
// of an earlier save, with a marker of rank 1 that its finisher did not get to remove.
void LeaveAnEarlierSave(const fs::path& capacity) {
  fs::create_directories(capacity);
  std::ofstream(capacity / file_names::kCheckpointManifest) << "{}";
  std::ofstream(capacity / DrainedMarkerName(1)) << "dlbench-drain save1\ndrained\n";
  std::ofstream(capacity / DrainFailedMarkerName(1)) << "dlbench-drain save1\nold failure\n";
}

TEST_F(DrainEngineTest, TheFinisherNeverTakesAnEarlierSavesMarker) {
  LeaveAnEarlierSave(capacity_);
  DrainEngine rank0(PosixEnv(), options(/*timeout=*/0.05));
  rank0.enqueue(make_job(0));
  const std::vector<DrainOutcome> zero = rank0.wait_all();
  ASSERT_EQ(zero.size(), 1u);
  EXPECT_NE(zero[0].error.find("rank 1 (and 0 more) did not mark"), std::string::npos)
      << zero[0].error;
  EXPECT_FALSE(fs::exists(capacity_ / file_names::kCheckpointManifest))
      << "withdrawn, and not committed";

  DrainEngine rank1(PosixEnv(), options());  // rank 1 replaces its own markers
  rank1.enqueue(make_job(1));
  ASSERT_EQ(rank1.wait_all()[0].error, "");
  EXPECT_FALSE(fs::exists(capacity_ / DrainFailedMarkerName(1)));
  DrainEngine again(PosixEnv(), options());
  again.enqueue(make_job(0));
  const std::vector<DrainOutcome> durable = again.wait_all();
  EXPECT_EQ(durable[0].error, "");
  EXPECT_TRUE(durable[0].durable_at.has_value());
}

TEST_F(DrainEngineTest, AResumedDrainTakesTheMarkersOfTheInterruptedSave) {
  LeaveAnEarlierSave(capacity_);
  fs::remove(capacity_ / DrainFailedMarkerName(1));       // the store's resume clears those
  for (const PlannedFile& f : plan_.for_rank(1).files) {  // rank 1's drained part
    fs::copy_file(fast_ / f.name, capacity_ / f.name);
  }
  DrainJob job = make_job(0);
  job.token.clear();
  DrainEngine rank0(PosixEnv(), options(/*timeout=*/0.05));
  rank0.enqueue(std::move(job));
  const std::vector<DrainOutcome> zero = rank0.wait_all();
  EXPECT_EQ(zero[0].error, "");
  EXPECT_TRUE(zero[0].durable_at.has_value());
}

TEST_F(DrainEngineTest, ASaveCancelledBeforeItsFirstFileLeavesAnEarlierCopyAlone) {
  LeaveAnEarlierSave(capacity_);
  for (const PlannedFile& f : plan_.for_rank(0).files) std::ofstream(capacity_ / f.name) << "old";
  auto feed = std::make_shared<DrainFeed>(plan_.for_rank(0).files.size());
  DrainJob job = make_job(0);
  job.feed = feed;
  DrainEngine rank0(PosixEnv(), options());
  rank0.enqueue(std::move(job));
  feed->cancel();
  EXPECT_TRUE(rank0.wait_all()[0].cancelled);
  EXPECT_TRUE(fs::exists(capacity_ / file_names::kCheckpointManifest));
  for (const PlannedFile& f : plan_.for_rank(0).files) {
    EXPECT_EQ(fs::file_size(capacity_ / f.name), 3u) << f.name;
  }
}

TEST_F(DrainEngineTest, ASourceOfTheWrongSizeIsAnError) {
  fs::resize_file(fast_ / plan_.for_rank(0).files.front().name, 3);
  DrainEngine rank0(PosixEnv(), options());
  rank0.enqueue(make_job(0));
  const std::vector<DrainOutcome> zero = rank0.wait_all();
  ASSERT_EQ(zero.size(), 1u);
  EXPECT_NE(zero[0].error.find("size 3 B, expected"), std::string::npos) << zero[0].error;
  EXPECT_FALSE(fs::exists(capacity_ / file_names::kCheckpointManifest));
}

TEST_F(DrainEngineTest, APipelinedJobCopiesEachFileOnceReadyAndMarksOnlyAfterTheCommit) {
  const PlannedFiles files = plan_.for_rank(0).files;
  ASSERT_GE(files.size(), 2u);
  auto feed = std::make_shared<DrainFeed>(files.size());
  DrainJob job = make_job(0);  // rank 0's two files; rank 1 has one
  job.finisher = false;        // the finisher's part is covered above
  job.feed = feed;
  DrainEngine rank0(PosixEnv(), options());
  rank0.enqueue(std::move(job));
  feed->mark_ready(0);
  ASSERT_TRUE(dlbench::test::AppearsWithinAMinute(capacity_ / files[0].name))
      << "the first file is copied while others wait";
  EXPECT_EQ(fs::file_size(capacity_ / files[0].name), files[0].bytes);
  EXPECT_FALSE(fs::exists(capacity_ / files[1].name)) << "not ready yet, so not copied";
  EXPECT_TRUE(rank0.take_finished().empty());
  for (std::size_t i = 1; i < files.size(); ++i) feed->mark_ready(i);
  ASSERT_TRUE(dlbench::test::AppearsWithinAMinute(capacity_ / files.back().name));
  EXPECT_FALSE(fs::exists(capacity_ / DrainedMarkerName(0))) << "not committed yet";
  feed->commit();
  const std::vector<DrainOutcome> zero = rank0.wait_all();
  ASSERT_EQ(zero.size(), 1u);
  EXPECT_EQ(zero[0].error, "");
  EXPECT_FALSE(zero[0].cancelled);
  EXPECT_EQ(zero[0].bytes, plan_.for_rank(0).bytes);
  EXPECT_TRUE(fs::exists(capacity_ / DrainedMarkerName(0)));
  for (const PlannedFile& f : files) EXPECT_EQ(fs::file_size(capacity_ / f.name), f.bytes);
}

// A save being written holds its rank's drains of earlier checkpoints: nothing of them is copied
// beside it (over older copies of the same names, such copies took the saves after the first
// from 0.15 s to 0.4-2.3 s on 2 cores). Released, the drain does its whole work. The earlier job
// cannot have copied anything before the hold (its files were not ready); the wait bounds
// nothing the outcome depends on: a held job copies nothing however long it is held.
TEST_F(DrainEngineTest, AHeldJobCopiesNothingUntilReleased) {
  const PlannedFiles files = plan_.for_rank(0).files;
  auto feed = std::make_shared<DrainFeed>(files.size());
  DrainJob job = make_job(0);
  job.finisher = false;  // the finisher's part is covered above
  job.feed = feed;
  DrainEngine rank0(PosixEnv(), options());
  rank0.enqueue(std::move(job));
  rank0.hold();
  rank0.hold();  // counted: two holds need two releases
  for (std::size_t i = 0; i < files.size(); ++i) feed->mark_ready(i);
  feed->commit();
  rank0.release();
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  for (const PlannedFile& f : files) {
    EXPECT_FALSE(fs::exists(capacity_ / f.name)) << "copied beside a save: " << f.name;
  }
  EXPECT_TRUE(rank0.take_finished().empty());
  rank0.release();
  const std::vector<DrainOutcome> zero = rank0.wait_all();
  ASSERT_EQ(zero.size(), 1u);
  EXPECT_EQ(zero[0].error, "");
  for (const PlannedFile& f : files) EXPECT_EQ(fs::file_size(capacity_ / f.name), f.bytes);
  EXPECT_TRUE(fs::exists(capacity_ / DrainedMarkerName(0)));
}

// The save's own drain, queued after the hold, is not held: it copies its files as they are
// written (the pipelined drain above).
TEST_F(DrainEngineTest, AJobQueuedAfterTheHoldIsNotHeld) {
  DrainJob job = make_job(0);
  job.finisher = false;
  DrainEngine rank0(PosixEnv(), options());
  rank0.hold();
  rank0.enqueue(std::move(job));
  const std::vector<DrainOutcome> zero = rank0.wait_all();
  ASSERT_EQ(zero.size(), 1u);
  EXPECT_EQ(zero[0].error, "");
  EXPECT_TRUE(fs::exists(capacity_ / DrainedMarkerName(0)));
  rank0.release();
}

// Destroyed while held (a save that threw): the engine still stops, the held job abandoned.
TEST_F(DrainEngineTest, AHeldEngineStillStops) {
  auto feed = std::make_shared<DrainFeed>(plan_.for_rank(0).files.size());
  DrainJob job = make_job(0);
  job.finisher = false;
  job.feed = feed;
  auto engine = std::make_unique<DrainEngine>(PosixEnv(), options());
  engine->enqueue(std::move(job));
  engine->hold();
  for (std::size_t i = 0; i < plan_.for_rank(0).files.size(); ++i) feed->mark_ready(i);
  feed->commit();
  engine.reset();  // returns: the held threads see the stop
  EXPECT_FALSE(fs::exists(capacity_ / DrainedMarkerName(0)));
}

// Cancelled after one file was copied, or after all of them: never a marker, copies removed.
class CancelledDrainTest : public DrainEngineTest, public ::testing::WithParamInterface<bool> {};

TEST_P(CancelledDrainTest, ACancelledSaveLeavesNoMarkerAndNoCopies) {
  const bool all_ready = GetParam();
  const PlannedFiles files = plan_.for_rank(0).files;
  ASSERT_GE(files.size(), 2u);
  auto feed = std::make_shared<DrainFeed>(files.size());
  DrainJob job = make_job(0);  // rank 0's two files; rank 1 has one
  job.finisher = false;        // the finisher's part is covered above
  job.feed = feed;
  DrainEngine rank0(PosixEnv(), options());
  rank0.enqueue(std::move(job));
  const std::size_t ready = all_ready ? files.size() : 1;
  for (std::size_t i = 0; i < ready; ++i) feed->mark_ready(i);
  ASSERT_TRUE(dlbench::test::AppearsWithinAMinute(capacity_ / files[ready - 1].name));
  feed->cancel();
  feed->commit();  // too late: a cancelled save stays cancelled
  EXPECT_FALSE(feed->committed());
  const std::vector<DrainOutcome> zero = rank0.wait_all();
  ASSERT_EQ(zero.size(), 1u);
  EXPECT_TRUE(zero[0].cancelled);
  EXPECT_NE(zero[0].error.find("save of checkpoint global_epoch1_step1 failed"), std::string::npos)
      << zero[0].error;
  EXPECT_FALSE(fs::exists(capacity_ / DrainedMarkerName(0)));
  EXPECT_FALSE(fs::exists(capacity_ / DrainFailedMarkerName(0)));
  for (const PlannedFile& f : files) EXPECT_FALSE(fs::exists(capacity_ / f.name)) << f.name;
}

INSTANTIATE_TEST_SUITE_P(AfterOneOrAllFiles, CancelledDrainTest, ::testing::Bool(),
                         [](const auto& param) { return param.param ? "AllCopied" : "OneCopied"; });

// A new save's content marker, streamed from its files' runs, is the text a resumed drain checks
// (DrainContentMatches), and the finisher prints the manifest from the save's plan: the bytes
// of the fast tier's.
TEST_F(DrainEngineTest, ANewSavePrintsItsMarkerAndManifestFromItsPlan) {
  const ContentSettings content = WriterOptions().content;
  const PlannedFiles files = plan_.for_rank(0).files;
  std::string expected = "dlbench-drain-content 1\nseed " + std::to_string(content.seed) +
                         "\nrandomize " + (content.randomize ? "1" : "0") +
                         "\ncheckpoint global_epoch1_step1\n";
  for (std::size_t i = 0; i < files.size(); ++i) {
    expected += "file " + std::to_string(files.bytes(i)) + " " + files.name(i) + "\n";
  }
  std::string marker;
  EmitDrainContentText(content, "global_epoch1_step1", files,
                       [&](std::string_view piece) { marker += piece; });
  EXPECT_EQ(marker, expected);
  dlbench::test::TempDir dir;
  const auto matches = [&](const char* name) {
    return DrainContentMatches(PosixEnv(), (dir / name).string(), content, "global_epoch1_step1",
                               files);
  };
  std::ofstream(dir / "same") << expected;
  std::ofstream(dir / "longer") << expected << "x";
  std::ofstream(dir / "shorter") << expected.substr(0, expected.size() - 1);
  EXPECT_TRUE(matches("same"));
  EXPECT_FALSE(matches("longer"));
  EXPECT_FALSE(matches("shorter"));
  EXPECT_FALSE(matches("absent"));

  DrainEngine rank1(PosixEnv(), options());
  rank1.enqueue(make_job(1));
  ASSERT_EQ(rank1.wait_all()[0].error, "");
  DrainJob job = make_job(0);
  job.manifest.clear();
  job.plan = std::make_shared<const CheckpointPlan>(plan_);
  job.content = content;
  DrainEngine rank0(PosixEnv(), options());
  rank0.enqueue(std::move(job));
  const std::vector<DrainOutcome> zero = rank0.wait_all();
  ASSERT_EQ(zero[0].error, "");
  EXPECT_TRUE(zero[0].durable_at.has_value());
  EXPECT_EQ(dlbench::test::ReadFile(capacity_ / file_names::kCheckpointManifest),
            dlbench::test::ReadFile(fast_ / file_names::kCheckpointManifest));
}

}  // namespace
}  // namespace dlbench::checkpoint
