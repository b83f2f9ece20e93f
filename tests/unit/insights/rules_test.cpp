// Each insight rule on injected facts, on both sides of each of its thresholds
// (docs/insights.md): just below it stays silent, at it the finding fires with its evidence.
#include "insights/rules.h"

#include <gtest/gtest.h>

#include <string>

#include "insights/thresholds.h"

namespace dlbench::insights {
namespace {

bool HasEvidence(const Finding& f, const std::string& metric_part) {
  for (const Evidence& e : f.evidence) {
    if (e.metric.find(metric_part) != std::string::npos) return true;
  }
  return false;
}

RunFacts Training(double load_points, int epochs = 2) {
  RunFacts facts;
  facts.train_au_percent.assign(epochs, 100 - load_points);
  facts.train_load_loss_points.assign(epochs, load_points);
  facts.train_load_seconds.assign(epochs, 1.0);
  facts.train_read_seconds = 10;
  return facts;
}

TEST(StorageBound, FiresAtTheShareOfAuLostToLoadWaits) {
  EXPECT_FALSE(StorageBound(Training(kStorageBoundPoints - 0.01)));
  const auto f = StorageBound(Training(kStorageBoundPoints));
  ASSERT_TRUE(f);
  EXPECT_EQ(f->id, "storage_bound");
  EXPECT_EQ(f->severity, Severity::kWarning);
  EXPECT_TRUE(HasEvidence(*f, "train_au_loss_load_percentage"));
  EXPECT_EQ(f->evidence[0].threshold, kStorageBoundPoints);
  EXPECT_NE(f->suggestion.find("stage"), std::string::npos);
  EXPECT_EQ(StorageBound(Training(kStorageBoundHighPoints - 0.01))->severity, Severity::kWarning);
  EXPECT_EQ(StorageBound(Training(kStorageBoundHighPoints))->severity, Severity::kHigh);
  EXPECT_FALSE(StorageBound(RunFacts{}));  // no training
}

// A traced run of `ranks` ranks of 2 reader threads each, whose items took `busy` of the readers'
// time in the 10 s window, a share `preprocess` of it in the emulated preprocessing.
RunFacts Traced(double load_points, double busy, double preprocess, int ranks = 2) {
  RunFacts facts = Training(load_points);
  facts.ranks = ranks;
  facts.read_threads = 2;
  TraceFacts& t = facts.trace.emplace();
  t.item_seconds = busy * 2 * ranks * *facts.train_read_seconds;
  t.preprocess_seconds = preprocess * t.item_seconds;
  return facts;
}

TEST(StorageBound, SaysTheStorageGaveNoMoreWhenTheTraceShowsTheReadersAlwaysBusy) {
  const auto busy = StorageBound(Traced(kStorageBoundPoints, kReadersBusyShare, 0));
  ASSERT_TRUE(busy);
  EXPECT_TRUE(HasEvidence(*busy, "data/item"));
  EXPECT_EQ(busy->evidence.back().threshold, 100 * kReadersBusyShare);
  EXPECT_NE(busy->suggestion.find("read without pause (2 per rank)"), std::string::npos);
  // Just below: the default suggestion, the share still shown (without a threshold).
  const auto idle = StorageBound(Traced(kStorageBoundPoints, kReadersBusyShare - 0.01, 0));
  ASSERT_TRUE(idle);
  EXPECT_NEAR(idle->evidence.back().value, 100 * (kReadersBusyShare - 0.01), 1e-9);
  EXPECT_FALSE(idle->evidence.back().threshold);
  EXPECT_EQ(idle->suggestion.find("without pause"), std::string::npos);
  // A trace kept 1 sample in 4: the kept samples' time is a quarter of the readers'.
  RunFacts sampled = Traced(kStorageBoundPoints, kReadersBusyShare / 4, 0);
  sampled.trace->sample = 4;
  EXPECT_NE(StorageBound(sampled)->suggestion.find("without pause"), std::string::npos);
  // No reader threads (reads on the trainer's thread), or no trace: no share.
  RunFacts inline_reads = Traced(kStorageBoundPoints, 1, 0);
  inline_reads.read_threads = 0;
  EXPECT_FALSE(HasEvidence(*StorageBound(inline_reads), "data/item"));
  EXPECT_FALSE(HasEvidence(*StorageBound(Training(kStorageBoundPoints)), "data/item"));
}

TEST(PreprocessBound, ReplacesStorageBoundWhenTheReadersMostlyPreprocessed) {
  const RunFacts at = Traced(kStorageBoundPoints, 1, kPreprocessShare);
  const auto f = PreprocessBound(at);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->id, "preprocess_bound");
  EXPECT_EQ(f->severity, Severity::kWarning);
  EXPECT_TRUE(HasEvidence(*f, "data/preprocess"));
  EXPECT_NE(f->suggestion.find("reader.read_threads"), std::string::npos);
  EXPECT_FALSE(StorageBound(at));
  EXPECT_EQ(PreprocessBound(Traced(kStorageBoundHighPoints, 1, 0.9))->severity, Severity::kHigh);
  // Just below the share: storage_bound, not preprocess_bound.
  const RunFacts below = Traced(kStorageBoundPoints, 1, kPreprocessShare - 0.01);
  EXPECT_FALSE(PreprocessBound(below));
  EXPECT_TRUE(StorageBound(below));
  // No AU lost to load waits, or no trace: silent.
  EXPECT_FALSE(PreprocessBound(Traced(kStorageBoundPoints - 0.01, 1, 1)));
  EXPECT_FALSE(PreprocessBound(Training(kStorageBoundPoints)));
}

RunFacts Reads(std::uint64_t reads, std::uint64_t small, double bytes_per_read) {
  RunFacts facts = Training(0);
  facts.reads = reads;
  facts.small_reads = small;
  facts.bytes_read = bytes_per_read * static_cast<double>(reads);
  return facts;
}

TEST(SmallReads, FiresWhenMostReadsAndTheMeanAreSmall) {
  EXPECT_TRUE(SmallReads(Reads(kSmallReadsMinReads, 50, 4096)));
  EXPECT_FALSE(SmallReads(Reads(kSmallReadsMinReads - 1, 99, 4096)));  // too few reads
  EXPECT_FALSE(SmallReads(Reads(200, 99, 4096)));                      // 49.5 %
  EXPECT_TRUE(SmallReads(Reads(200, 100, 4096)));                      // 50 %
  EXPECT_FALSE(SmallReads(Reads(200, 200, kSmallAccessBytes)));        // mean at the edge
  EXPECT_TRUE(SmallReads(Reads(200, 200, kSmallAccessBytes - 1)));
}

TEST(SmallReads, IsAWarningOnlyWhenLoadWaitsCostAu) {
  EXPECT_EQ(SmallReads(Reads(200, 200, 4096))->severity, Severity::kInfo);
  RunFacts costly = Reads(200, 200, 4096);
  costly.train_load_loss_points = {kStorageBoundPoints, kStorageBoundPoints};
  EXPECT_EQ(SmallReads(costly)->severity, Severity::kWarning);
  RunFacts untrained;  // a checkpoint-only run: no AU to weigh it against
  untrained.reads = 200;
  untrained.small_reads = 200;
  untrained.bytes_read = 200 * 4096.0;
  EXPECT_EQ(SmallReads(untrained)->severity, Severity::kWarning);
}

RunFacts MetaTime(double meta, double read) {
  RunFacts facts;
  facts.meta_time_seconds = meta;
  facts.read_time_seconds = read;
  return facts;
}

TEST(MetadataBound, FiresAtTheShareOfIoTime) {
  EXPECT_FALSE(MetadataBound(MetaTime(0.49, 0.51)));
  const auto f = MetadataBound(MetaTime(0.5, 0.5));
  ASSERT_TRUE(f);
  EXPECT_EQ(f->id, "metadata_bound");
  EXPECT_TRUE(HasEvidence(*f, "POSIX_F_META_TIME"));
  // Below the absolute floor: a few opens of a tiny run.
  EXPECT_FALSE(MetadataBound(MetaTime(kMetadataMinSeconds * 0.99, 0)));
  EXPECT_TRUE(MetadataBound(MetaTime(kMetadataMinSeconds, 0)));
  EXPECT_FALSE(MetadataBound(RunFacts{}));
  // A training run whose load waits cost little AU: not a finding.
  RunFacts trained = Training(kStorageBoundPoints - 0.01);
  trained.meta_time_seconds = 1;
  EXPECT_FALSE(MetadataBound(trained));
  trained.train_load_loss_points.assign(2, kStorageBoundPoints);
  EXPECT_TRUE(MetadataBound(trained));
  // On an object store a written file's close is its upload.
  RunFacts s3 = MetaTime(0.9, 0.1);
  s3.object_storage = true;
  EXPECT_FALSE(MetadataBound(s3));
}

RunFacts RankReads(std::vector<double> seconds) {
  RunFacts facts;
  facts.ranks = static_cast<int>(seconds.size());
  facts.read_time_per_rank_seconds = std::move(seconds);
  facts.train_read_seconds = 10;
  return facts;
}

TEST(RankImbalance, NamesTheStragglerAtTheRatioToTheOthersMedian) {
  EXPECT_FALSE(RankImbalance(RankReads({1.0, 1.49, 1.0})));
  const auto f = RankImbalance(RankReads({1.0, 1.5, 1.0}));
  ASSERT_TRUE(f);
  EXPECT_EQ(f->id, "rank_imbalance");
  EXPECT_NE(f->message.find("Rank 1 is the straggler"), std::string::npos);
  EXPECT_TRUE(HasEvidence(*f, "read_time_per_rank_seconds[1]"));
  EXPECT_EQ(f->severity, Severity::kWarning);
  EXPECT_EQ(RankImbalance(RankReads({1.0, 3.0}))->severity, Severity::kHigh);
  EXPECT_EQ(RankImbalance(RankReads({1.0, 2.99}))->severity, Severity::kWarning);
  // Tiny absolute differences are noise, whatever the ratio.
  EXPECT_FALSE(RankImbalance(RankReads({0, 0.0999})));
  EXPECT_TRUE(RankImbalance(RankReads({0, 0.1})));
  EXPECT_FALSE(RankImbalance(RankReads({5.0})));
  // No training: the reads are a checkpoint run's loads and drains, without a step barrier.
  RunFacts checkpoint_only = RankReads({1.0, 3.0});
  checkpoint_only.train_read_seconds.reset();
  EXPECT_FALSE(RankImbalance(checkpoint_only));
}

RunFacts Epochs(std::vector<double> load_seconds) {
  RunFacts facts;
  facts.train_load_seconds = std::move(load_seconds);
  return facts;
}

TEST(FirstEpochSlower, FiresAtTheRatioToTheLaterEpochs) {
  EXPECT_FALSE(FirstEpochSlower(Epochs({1.49, 1.0, 1.0})));
  const auto f = FirstEpochSlower(Epochs({1.5, 1.0, 1.0}));
  ASSERT_TRUE(f);
  EXPECT_EQ(f->id, "first_epoch_slower");
  EXPECT_NE(f->suggestion.find("before_training"), std::string::npos);
  EXPECT_FALSE(FirstEpochSlower(Epochs({0.0499, 0})));  // under 0.05 s more: noise
  EXPECT_TRUE(FirstEpochSlower(Epochs({0.05, 0})));
  EXPECT_FALSE(FirstEpochSlower(Epochs({5.0})));  // one epoch
}

TEST(PageCacheServed, FiresWhenMemoryHoldsTheDataAndEpochsRereadIt) {
  RunFacts facts = Epochs({1, 1});
  facts.page_cache_possible = true;
  const auto f = PageCacheServed(facts);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->severity, Severity::kInfo);
  RunFacts dropped = facts;
  dropped.cache_bypassed = true;
  EXPECT_FALSE(PageCacheServed(dropped));
  RunFacts one_epoch = facts;
  one_epoch.train_load_seconds = {1};
  EXPECT_FALSE(PageCacheServed(one_epoch));
  RunFacts big = facts;
  big.page_cache_possible = false;
  EXPECT_FALSE(PageCacheServed(big));
  // Read from an object store: no page cache in the way (fired on every S3 run before).
  RunFacts on_s3 = facts;
  on_s3.object_storage = true;
  EXPECT_FALSE(PageCacheServed(on_s3));
}

// A run that read `mib` MiB in `seconds` of read calls.
RunFacts Reread(double seconds, double mib = 100) {
  RunFacts facts;
  facts.reads = 100;
  facts.bytes_read = mib * 1048576;
  facts.read_time_seconds = seconds;
  return facts;
}

TEST(PageCacheServedOnRerun, FiresWhenTheLaterRunsReadTheSameBytesFaster) {
  // Later runs at 0.4 s (median of 0.3, 0.4, 0.5): the first at 1.5x that and 0.05 s more fires.
  const double later = 0.4;
  const auto f = PageCacheServedOnRerun(
      {Reread(kRerunRatio * later), Reread(0.3), Reread(later), Reread(0.5)});
  ASSERT_TRUE(f);
  EXPECT_EQ(f->id, "page_cache_served");
  EXPECT_EQ(f->severity, Severity::kWarning);
  EXPECT_NE(f->message.find("3 later runs"), std::string::npos) << f->message;
  EXPECT_TRUE(HasEvidence(*f, "POSIX_F_READ_TIME"));
  EXPECT_NE(f->suggestion.find("reader.drop_caches"), std::string::npos);
  EXPECT_FALSE(PageCacheServedOnRerun(
      {Reread(kRerunRatio * later - 0.001), Reread(0.3), Reread(later), Reread(0.5)}));
  // The ratio holds but the first run is not 0.05 s slower.
  EXPECT_FALSE(PageCacheServedOnRerun({Reread(0.049), Reread(0.0)}));
  EXPECT_TRUE(PageCacheServedOnRerun({Reread(kRerunMinExcessSeconds), Reread(0.0)}));
  RunFacts on_s3 = Reread(kRerunMinExcessSeconds);
  on_s3.object_storage = true;
  EXPECT_FALSE(PageCacheServedOnRerun({on_s3, Reread(0.0)}));
}

TEST(PageCacheServedOnRerun, SilentForOneRunOtherDataOrRunsThatKeptTheCacheOut) {
  EXPECT_FALSE(PageCacheServedOnRerun({Reread(1)}));
  EXPECT_FALSE(PageCacheServedOnRerun({}));
  // Other bytes: more than kRerunSameBytesShare away from the first run's.
  EXPECT_FALSE(PageCacheServedOnRerun({Reread(1, 100), Reread(0.1, 111)}));
  EXPECT_FALSE(PageCacheServedOnRerun({Reread(1, 100), Reread(0.1, 89)}));
  EXPECT_TRUE(PageCacheServedOnRerun({Reread(1, 100), Reread(0.1, 109)}));
  RunFacts bypassed = Reread(0.1);
  bypassed.cache_bypassed = true;
  EXPECT_FALSE(PageCacheServedOnRerun({Reread(1), bypassed}));
  RunFacts staged = Reread(0.1);
  staged.staged = true;
  EXPECT_FALSE(PageCacheServedOnRerun({Reread(1), staged}));
  EXPECT_FALSE(PageCacheServedOnRerun({Reread(1), RunFacts{}}));   // no read counted
  EXPECT_FALSE(PageCacheServedOnRerun({Reread(0.1), Reread(1)}));  // the later run slower
}

RunFacts Stall(double stall, double training) {
  RunFacts facts;
  facts.checkpoint_stall_seconds = stall;
  facts.train_read_seconds = training;
  facts.saves = 2;
  return facts;
}

TEST(CheckpointStall, FiresAtTheShareOfTrainingTime) {
  EXPECT_FALSE(CheckpointStall(Stall(0.99, 9.01)));
  const auto f = CheckpointStall(Stall(1, 9));
  ASSERT_TRUE(f);
  EXPECT_EQ(f->severity, Severity::kWarning);
  EXPECT_TRUE(HasEvidence(*f, "checkpoint_stall_seconds"));
  EXPECT_EQ(CheckpointStall(Stall(2.99, 7.01))->severity, Severity::kWarning);
  EXPECT_EQ(CheckpointStall(Stall(3, 7))->severity, Severity::kHigh);
  EXPECT_FALSE(CheckpointStall(RunFacts{}));
}

// Two saves over `training` seconds of blocks (so one every training/2 s), each stalling 0 s and
// durable `drain` s after it started.
RunFacts Drain(double drain, double training) {
  RunFacts facts;
  facts.drained = true;
  facts.saves = 2;
  facts.train_read_seconds = training;
  facts.checkpoint_stall_seconds = 0;
  facts.stall_mean_seconds = 0;
  facts.time_to_durable_mean_seconds = drain;
  return facts;
}

TEST(DrainBacklog, FiresWhenADrainTakesLongerThanTheIntervalBetweenSaves) {
  EXPECT_FALSE(DrainBacklog(Drain(0.99, 2)));
  const auto f = DrainBacklog(Drain(1, 2));
  ASSERT_TRUE(f);
  EXPECT_EQ(f->id, "drain_backlog");
  EXPECT_EQ(f->severity, Severity::kWarning);
  // With the slots known, it says when the buffer fills: 2 slots, each save leaves half a
  // checkpoint more pending (drain 2 s, a save every 1 s), so after 4 saves, 4 s.
  RunFacts slots = Drain(2, 2);
  slots.burst_buffer_slots = 2;
  EXPECT_NE(DrainBacklog(slots)->message.find("fill after about 4 saves (4 s of training)"),
            std::string::npos);
  // Backpressure: full already, whatever the rates.
  RunFacts full = Drain(0.1, 2);
  full.backpressure_total_seconds = 0.5;
  EXPECT_EQ(DrainBacklog(full)->severity, Severity::kHigh);
  // Checkpoint-only runs save back to back: only a buffer that filled is a finding.
  RunFacts back_to_back = Drain(5, 2);
  back_to_back.train_read_seconds.reset();
  back_to_back.stall_mean_seconds = 1;
  EXPECT_FALSE(DrainBacklog(back_to_back));
  back_to_back.backpressure_total_seconds = 0.5;
  EXPECT_TRUE(DrainBacklog(back_to_back));
  RunFacts undrained = Drain(5, 2);
  undrained.drained = false;
  EXPECT_FALSE(DrainBacklog(undrained));
}

TEST(EvalDominates, FiresAtHalfOfTheTime) {
  RunFacts facts;
  facts.train_read_seconds = 5.01;
  facts.eval_read_seconds = 4.99;
  EXPECT_FALSE(EvalDominates(facts));
  facts.train_read_seconds = 5;
  facts.eval_read_seconds = 5;
  ASSERT_TRUE(EvalDominates(facts));
  EXPECT_EQ(EvalDominates(facts)->id, "eval_dominates");
}

RunFacts Shared(int ranks, std::uint64_t accesses, std::uint64_t small, double bytes_each) {
  RunFacts facts;
  facts.ranks = ranks;
  facts.shared_files.push_back(
      {"/data/train/img_0_of_1.npz", accesses, small, bytes_each * static_cast<double>(accesses)});
  return facts;
}

TEST(SharedFileContention, FiresOnManySmallAccessesOfOneSharedFile) {
  const auto f = Shared(2, kSharedMinAccesses, 50, 4096);
  ASSERT_TRUE(SharedFileContention(f));
  EXPECT_NE(SharedFileContention(f)->message.find("img_0_of_1.npz"), std::string::npos);
  EXPECT_FALSE(SharedFileContention(Shared(2, kSharedMinAccesses - 1, 99, 4096)));
  EXPECT_FALSE(SharedFileContention(Shared(2, 200, 99, 4096)));
  EXPECT_FALSE(SharedFileContention(Shared(2, 200, 200, kSmallAccessBytes)));
  EXPECT_FALSE(SharedFileContention(Shared(1, 200, 200, 4096)));  // one rank: nothing shared
}

RunFacts Objects(std::uint64_t requests, std::uint64_t retries, double first_byte, double total) {
  RunFacts facts;
  facts.object_store = ObjectStoreFacts{requests, retries, total, first_byte};
  return facts;
}

TEST(RequestLatencyBound, FiresWhenTimeToFirstByteDominates) {
  EXPECT_FALSE(RequestLatencyBound(Objects(100, 0, 0.49, 1)));
  ASSERT_TRUE(RequestLatencyBound(Objects(100, 0, 0.5, 1)));
  EXPECT_EQ(RequestLatencyBound(Objects(100, 0, 0.5, 1))->id, "request_latency_bound");
  EXPECT_FALSE(RequestLatencyBound(Objects(99, 0, 0.9, 1)));
  EXPECT_FALSE(RequestLatencyBound(RunFacts{}));  // dormant without object storage
}

TEST(Retries, FiresAtTheShareOfRetriedRequests) {
  EXPECT_FALSE(Retries(Objects(1000, 9, 0, 1)));
  ASSERT_TRUE(Retries(Objects(1000, 10, 0, 1)));
  EXPECT_EQ(Retries(Objects(1000, 10, 0, 1))->severity, Severity::kWarning);
  EXPECT_EQ(Retries(Objects(1000, 99, 0, 1))->severity, Severity::kWarning);
  EXPECT_EQ(Retries(Objects(1000, 100, 0, 1))->severity, Severity::kHigh);
  EXPECT_FALSE(Retries(RunFacts{}));
}

}  // namespace
}  // namespace dlbench::insights
