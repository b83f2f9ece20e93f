// <rank>_output.json and <rank>_per_epoch_stats.json.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <time.h>

#include "metrics/summary.h"
#include "records.h"

namespace dlbench::metrics {
namespace {

using test::MakeBlock;
using test::WorkedBlock;

class RankFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    setenv("TZ", "UTC", 1);  // timestamps in UTC so that the expected strings are fixed
    tzset();
  }

  // 2026-11-21T04:32:49.000000Z at monotonic time 0.
  static WallClockAnchor Anchor() {
    return WallClockAnchor(0.0, WallTime(std::chrono::seconds(1795235569)));
  }

  static RunSettings Settings() {
    RunSettings settings;
    settings.steps_per_epoch = 4;
    settings.eval_steps_per_epoch = 2;
    settings.batch_size = 4;
    settings.eval_batch_size = 4;
    settings.checkpoint_size_GiB = 8.0;
    return settings;
  }

  // Epoch 1: block 1 (worked example, 0 .. 5.5 s), save 1 (5.5 .. 7.5 s), block 2 (7.5 ..
  // 8.5 s), eval (9 .. 10 s).
  static RankRecord Record() {
    RankRecord record;
    EpochRecord epoch;
    epoch.number = 1;
    epoch.start = 0;
    epoch.blocks.push_back(WorkedBlock(1, 0));
    epoch.blocks.push_back(MakeBlock(2, 7.5, {{0.5, 0.5, 0}}));
    epoch.eval = MakeBlock(1, 9, {{0.25, 0.25, 0}, {0.25, 0.25, 0}});
    epoch.end = 10;
    record.epochs.push_back(epoch);
    CheckpointRecord save;
    save.epoch = 1;
    save.number = 1;
    save.start = 5.5;
    save.end = 7.5;
    record.checkpoints.push_back(save);
    return record;
  }
};

TEST_F(RankFiles, PerEpochStatsAsDlioWritesThem) {
  const Json stats = BuildPerEpochStats(Record(), Settings(), Anchor());
  const Json& e = stats["1"];
  EXPECT_EQ(e["start"], "2026-11-21T04:32:49.000000+00:00");
  EXPECT_EQ(e["end"], "2026-11-21T04:32:59.000000+00:00");
  EXPECT_EQ(e["duration"], "10.00");  // a string with two decimals, as DLIO
  EXPECT_EQ(e["block1"]["duration"], "5.50");
  EXPECT_EQ(e["block1"]["end"], "2026-11-21T04:32:54.500000+00:00");
  EXPECT_EQ(e["block2"]["duration"], "1.00");
  EXPECT_EQ(e["eval"]["duration"], "1.00");
  // Checkpoints: duration a number, throughput the nominal size over it (GiB/s).
  EXPECT_TRUE(e["save_ckpt1"]["duration"].is_number_float());
  EXPECT_DOUBLE_EQ(e["save_ckpt1"]["duration"].get<double>(), 2.0);
  EXPECT_DOUBLE_EQ(e["save_ckpt1"]["throughput"].get<double>(), 4.0);
  EXPECT_EQ(e["save_ckpt1"]["start"], "2026-11-21T04:32:54.500000+00:00");
}

TEST_F(RankFiles, CheckpointOnlyRunGoesUnderEpochOne) {
  RankRecord record;
  for (int i = 1; i <= 2; ++i) {
    CheckpointRecord save;
    save.number = i;
    save.start = 10.0 * i;
    save.end = 10.0 * i + 4;
    record.checkpoints.push_back(save);
    CheckpointRecord load = save;
    load.kind = CheckpointKind::kLoad;
    load.start = 100.0 + i;
    load.end = 100.0 + i;  // zero duration: no throughput rather than infinity
    record.checkpoints.push_back(load);
  }
  const Json stats = BuildPerEpochStats(record, Settings(), Anchor());
  ASSERT_EQ(stats.size(), 1u);
  const Json& e = stats["1"];
  EXPECT_TRUE(e.contains("save_ckpt1"));
  EXPECT_TRUE(e.contains("save_ckpt2"));
  EXPECT_TRUE(e.contains("load_ckpt2"));
  EXPECT_DOUBLE_EQ(e["save_ckpt2"]["throughput"].get<double>(), 2.0);
  EXPECT_FALSE(e["load_ckpt1"].contains("throughput"));
  EXPECT_TRUE(Json::accept(stats.dump()));
}

TEST_F(RankFiles, RankOutputListsAndBlockResults) {
  RankHost host;
  host.hostname = "node7";
  host.cpu_count = 32;
  host.processor_name = "x86_64";
  host.memory_GiB = 125.5;
  host.potential_caching = 1;
  host.cpuinfo = {{"model name", "CPU"}};
  host.meminfo = {{"MemTotal", "1 kB"}};
  host.epoch_meminfo[1] = {{"MemFree", "2 kB"}};
  const Json out = BuildRankOutput(Record(), host, Settings(), Anchor());
  EXPECT_TRUE(out["host_memory_GB"].is_number_float());
  EXPECT_EQ(out["host_cpu_count"], 32);
  EXPECT_EQ(out["host_processor_name"], "x86_64");
  EXPECT_EQ(out["potential_caching"], 1);
  EXPECT_EQ(out["hostname"], "node7");
  EXPECT_TRUE(out["host_cpuinfo"].is_object());
  const Json& e = out["1"];  // epoch keys are strings
  EXPECT_EQ(e["load"]["block1"], Json::array({0.5, 0.2, 0.3, 0.1}));
  EXPECT_EQ(e["compute"]["block1"], Json::array({1.0, 1.0, 1.0, 1.0}));
  EXPECT_EQ(e["barrier"]["block1"], Json::array({0.1, 0.2, 0.0, 0.1}));  // dlbench's addition
  EXPECT_EQ(e["barrier"]["eval"], Json::array({0.0, 0.0}));
  // dlbench's step breakdown per step: the draw the compute was asked, the barrier's skew part.
  EXPECT_EQ(e["compute_asked"]["block1"], Json::array({0.0, 0.0, 0.0, 0.0}));
  EXPECT_EQ(e["barrier_skew"]["block1"], Json::array({0.0, 0.0, 0.0, 0.0}));
  EXPECT_DOUBLE_EQ(e["proc"]["block1"][0].get<double>(), 1.5);
  EXPECT_DOUBLE_EQ(e["au"]["block1"].get<double>(), 75.0);
  EXPECT_DOUBLE_EQ(e["throughput"]["block1"].get<double>(), 2.0);  // this rank, DLIO's "-2"
  EXPECT_EQ(e["load"]["block2"].size(), 1u);
  EXPECT_EQ(e["load"]["eval"].size(), 2u);
  EXPECT_DOUBLE_EQ(e["throughput"]["eval"].get<double>(), 2 * 4 / 1.0);
  EXPECT_EQ(e["host_meminfo"]["MemFree"], "2 kB");
  EXPECT_EQ(e["end"], "2026-11-21T04:32:59.000000+00:00");
}

}  // namespace
}  // namespace dlbench::metrics
