#include "metrics/summary.h"

#include <gtest/gtest.h>

#include <cmath>

#include "util/error.h"

namespace dlbench::metrics {
namespace {

PhaseEpoch Epoch(int number, double au, double dlio, double exact) {
  PhaseEpoch e;
  e.epoch = number;
  e.au_percent = au;
  e.au_min_percent = au - 5;
  e.au_max_percent = au + 5;
  e.dlio_samples_per_second = dlio;
  e.exact_samples_per_second = exact;
  e.read_bytes = 100 * MiB;
  e.nominal_bytes = 101 * MiB;
  e.read_spans = {{100.0 * number, 100.0 * number + 10}};
  e.breakdown.measured_steps = 6;  // AU measured some steps (the rank sum)
  return e;
}

RunMetrics TrainRun() {
  RunMetrics run;
  run.info.start = "2026-11-21T04:32:49.000000+00:00";
  run.info.end = "2026-11-21T04:33:49.000000+00:00";
  run.info.num_accelerators = 8;
  run.info.num_hosts = 2;
  run.info.hostname = "node1";
  run.info.num_files_train = 168;
  run.info.num_samples_per_file = 1;
  run.info.host_cpu_count = {64, 64};
  run.info.host_processor_name = "x86_64";
  run.info.host_memory_GiB = {256.0, 256.0};
  run.info.host_cpuinfo = {{"model name", "CPU"}};
  run.info.host_meminfo = {{"MemTotal", "268435456 kB"}};
  run.info.data_size_per_host_GiB = 12.5;
  run.info.potential_caching = {1, 1};
  run.au_expectation = 0.90;
  run.record_length_bytes = 2 * MiB;
  PhaseMetrics train;
  train.epochs = {Epoch(1, 80, 100, 120), Epoch(2, 90, 110, 130)};
  train.sample_read_latency = Percentiles{1000, 0.001, 0.002, 0.003, 0.004};
  train.batch_wait = Percentiles{10, 0.01, 0.02, 0.03, 0.04};
  run.train = train;
  return run;
}

// The storage and, for S3, the library MLPerf Storage's configuration names (recorded only).
TEST(BuildSummary, RecordsTheStorageTypeAndLibrary) {
  RunMetrics run = TrainRun();
  run.info.storage_type = "s3";
  run.info.storage_library = "s3dlio";
  const Json s = BuildSummary(run);
  EXPECT_EQ(s["storage_type"], "s3");
  EXPECT_EQ(s["storage_library"], "s3dlio");
}

TEST(BuildSummary, DlioTopLevelFieldsAndTypes) {
  const Json s = BuildSummary(TrainRun());
  for (const char* key : {"start", "end", "hostname", "host_processor_name"}) {
    EXPECT_TRUE(s[key].is_string()) << key;
  }
  for (const char* key : {"num_accelerators", "num_hosts", "num_files_train", "num_files_eval",
                          "num_samples_per_file", "epochs"}) {
    EXPECT_TRUE(s[key].is_number_integer()) << key;
  }
  EXPECT_TRUE(s["host_cpu_count"].is_array());
  EXPECT_TRUE(s["host_cpu_count"][0].is_number_integer());
  EXPECT_TRUE(s["host_memory_GB"][0].is_number_float());
  EXPECT_TRUE(s["host_cpuinfo"].is_object());
  EXPECT_EQ(s["host_meminfo"]["MemTotal"], "268435456 kB");
  EXPECT_TRUE(s["data_size_per_host_GB"].is_number_float());
  EXPECT_TRUE(s["potential_caching"][0].is_number_integer());
  EXPECT_EQ(s["epochs"], 2);
  EXPECT_EQ(s["num_accelerators"], 8);
  EXPECT_FALSE(s.contains("storage_type"));  // not given
  EXPECT_FALSE(s.contains("storage_library"));
  EXPECT_TRUE(s["metric"].is_object());
}

TEST(BuildSummary, TrainingMetricsAsDlioComputesThem) {
  const Json m = BuildSummary(TrainRun())["metric"];
  EXPECT_EQ(m["train_au_percentage"], Json::array({80.0, 90.0}));
  EXPECT_DOUBLE_EQ(m["train_au_mean_percentage"].get<double>(), 85.0);
  EXPECT_DOUBLE_EQ(m["train_au_stdev_percentage"].get<double>(), 5.0);  // population
  EXPECT_EQ(m["train_au_meet_expectation"], "fail");                    // 85 < 90
  EXPECT_EQ(m["train_throughput_samples_per_second"], Json::array({100.0, 110.0}));
  EXPECT_DOUBLE_EQ(m["train_throughput_mean_samples_per_second"].get<double>(), 105.0);
  EXPECT_DOUBLE_EQ(m["train_throughput_stdev_samples_per_second"].get<double>(), 5.0);
  EXPECT_DOUBLE_EQ(m["train_io_mean_MB_per_second"].get<double>(), 210.0);  // x 2 MiB
  EXPECT_DOUBLE_EQ(m["train_io_stdev_MB_per_second"].get<double>(), 10.0);
}

// Without the step barrier ranks drift apart, so one epoch's blocks (min start .. max end over
// ranks) overlap the next's: the read window counts each moment once, not the sum of the spans
// (which made a 2-rank npy run's read MiB/s 2.4 times too low).
TEST(BuildSummary, ReadSecondsCountOverlappingEpochsOnce) {
  RunMetrics run = TrainRun();
  run.train->epochs[0].read_spans = {{0, 10}};
  run.train->epochs[1].read_spans = {{5, 15}};
  const Json m = BuildSummary(run)["metric"];
  EXPECT_DOUBLE_EQ(m["train_read_seconds"].get<double>(), 15.0);
  EXPECT_DOUBLE_EQ(m["train_read_MiB_per_second"].get<double>(), 200.0 / 15);
}

TEST(BuildSummary, MeetExpectationAtTheThresholdIsSuccess) {
  RunMetrics run = TrainRun();
  run.au_expectation = 0.85;
  EXPECT_EQ(BuildSummary(run)["metric"]["train_au_meet_expectation"], "success");
}

TEST(BuildSummary, DlbenchFieldsWithUnitsInTheirNames) {
  const Json m = BuildSummary(TrainRun())["metric"];
  EXPECT_EQ(m["train_au_min_percentage"], Json::array({75.0, 85.0}));
  EXPECT_EQ(m["train_au_max_percentage"], Json::array({85.0, 95.0}));
  EXPECT_EQ(m["train_throughput_samples_per_second_exact"], Json::array({120.0, 130.0}));
  EXPECT_DOUBLE_EQ(m["train_throughput_mean_samples_per_second_exact"].get<double>(), 125.0);
  EXPECT_EQ(m["train_read_bytes"], 200 * MiB);
  EXPECT_TRUE(m["train_read_bytes"].is_number_unsigned());
  EXPECT_EQ(m["train_nominal_bytes"], 202 * MiB);
  EXPECT_DOUBLE_EQ(m["train_read_seconds"].get<double>(), 20.0);
  EXPECT_DOUBLE_EQ(m["train_read_MiB_per_second"].get<double>(), 10.0);
  EXPECT_DOUBLE_EQ(m["train_read_GB_per_second"].get<double>(), 200.0 * MiB / 1e9 / 20);
  EXPECT_EQ(m["train_sample_read_latency_count"], 1000);
  EXPECT_DOUBLE_EQ(m["train_sample_read_latency_p50_seconds"].get<double>(), 0.001);
  EXPECT_DOUBLE_EQ(m["train_sample_read_latency_p90_seconds"].get<double>(), 0.002);
  EXPECT_DOUBLE_EQ(m["train_sample_read_latency_p99_seconds"].get<double>(), 0.003);
  EXPECT_DOUBLE_EQ(m["train_sample_read_latency_max_seconds"].get<double>(), 0.004);
  EXPECT_DOUBLE_EQ(m["train_batch_wait_p99_seconds"].get<double>(), 0.03);
}

TEST(BuildSummary, StepBreakdownListsPerEpoch) {
  RunMetrics run = TrainRun();
  run.train->epochs[0].breakdown.first_batch_wait = 0.004;
  run.train->epochs[1].breakdown.load_wait = 0.25;
  run.train->epochs[0].breakdown.compute_overshoot = 0.001;
  run.train->epochs[1].breakdown.barrier_skew = 0.5;
  run.train->epochs[0].breakdown.barrier_latency = 0.125;
  run.train->epochs[1].breakdown.other = 0.002;
  run.train->epochs[0].breakdown.load_points = 1.5;
  run.train->epochs[1].breakdown.barrier_skew_points = 2.5;
  run.train->epochs[0].breakdown.barrier_latency_points = 0.75;
  run.train->epochs[1].breakdown.other_points = 0.25;
  const Json m = BuildSummary(run)["metric"];
  EXPECT_EQ(m["train_first_batch_wait_seconds"], Json::array({0.004, 0.0}));
  EXPECT_EQ(m["train_load_wait_seconds"], Json::array({0.0, 0.25}));
  EXPECT_EQ(m["train_compute_overshoot_seconds"], Json::array({0.001, 0.0}));
  EXPECT_EQ(m["train_barrier_skew_seconds"], Json::array({0.0, 0.5}));
  EXPECT_EQ(m["train_barrier_latency_seconds"], Json::array({0.125, 0.0}));
  EXPECT_EQ(m["train_step_other_seconds"], Json::array({0.0, 0.002}));
  EXPECT_EQ(m["train_au_loss_load_percentage"], Json::array({1.5, 0.0}));
  EXPECT_EQ(m["train_au_loss_barrier_skew_percentage"], Json::array({0.0, 2.5}));
  EXPECT_EQ(m["train_au_loss_barrier_latency_percentage"], Json::array({0.75, 0.0}));
  EXPECT_EQ(m["train_au_loss_other_percentage"], Json::array({0.0, 0.25}));
}

// An epoch where the exclusions cover every step (one step, exclude_start_steps: 1) measured no
// AU: DLIO's 0 and "fail" stay for its tools, the count of measured steps says why, and no AU
// points are charged to the time the exclusions left over (they read 100 points "lost").
TEST(BuildSummary, EpochWithoutMeasuredStepHasNoAuLosses) {
  RunMetrics run = TrainRun();
  run.train->epochs[1].breakdown.measured_steps = 0;
  run.train->epochs[1].breakdown.other_points = 100;
  run.train->epochs[1].au_percent = 0;
  const Json m = BuildSummary(run)["metric"];
  EXPECT_EQ(m["train_au_measured_steps"], Json::array({6, 0}));
  EXPECT_EQ(m["train_au_meet_expectation"], "fail");
  for (const char* key :
       {"train_au_loss_load_percentage", "train_au_loss_barrier_skew_percentage",
        "train_au_loss_barrier_latency_percentage", "train_au_loss_other_percentage"}) {
    EXPECT_FALSE(m.contains(key)) << key;
  }
  EXPECT_TRUE(m.contains("train_first_batch_wait_seconds"));
  EXPECT_EQ(BuildSummary(TrainRun())["metric"]["train_au_measured_steps"], Json::array({6, 6}));
}

TEST(BuildSummary, AbsentPhasesAreOmitted) {
  const Json m = BuildSummary(TrainRun())["metric"];
  for (const auto& [key, value] : m.items()) {
    EXPECT_EQ(key.rfind("train_", 0), 0u) << key << " present without its phase";
  }
  RunMetrics nothing = TrainRun();
  nothing.train.reset();
  const Json s = BuildSummary(nothing);
  EXPECT_TRUE(s["metric"].empty());
  EXPECT_EQ(s["epochs"], 0);
}

TEST(BuildSummary, NonFiniteValuesAreLeftOutAndTheJsonParses) {
  RunMetrics run = TrainRun();
  run.train->epochs[1].au_percent = std::nan("");
  run.train->epochs[1].exact_samples_per_second.reset();  // undefined in one epoch
  run.train->epochs[0].read_spans.clear();
  run.train->epochs[1].read_spans.clear();
  const Json s = BuildSummary(run);
  const Json m = s["metric"];
  EXPECT_FALSE(m.contains("train_au_percentage"));
  EXPECT_FALSE(m.contains("train_au_mean_percentage"));
  EXPECT_FALSE(m.contains("train_throughput_samples_per_second_exact"));
  EXPECT_FALSE(m.contains("train_read_MiB_per_second"));
  EXPECT_TRUE(m.contains("train_throughput_samples_per_second"));
  const std::string text = s.dump();
  EXPECT_EQ(text.find("NaN"), std::string::npos);
  EXPECT_EQ(text.find("null"), std::string::npos);
  EXPECT_TRUE(Json::accept(text));
}

TEST(BuildSummary, EvalFieldsMirrorTraining) {
  RunMetrics run = TrainRun();
  PhaseMetrics eval;
  eval.epochs = {Epoch(1, 95, 50, 55)};
  run.eval = eval;
  const Json m = BuildSummary(run)["metric"];
  for (const char* key :
       {"eval_au_percentage", "eval_au_mean_percentage", "eval_au_stdev_percentage",
        "eval_au_meet_expectation", "eval_throughput_samples_per_second",
        "eval_throughput_mean_samples_per_second", "eval_throughput_stdev_samples_per_second",
        "eval_io_mean_MB_per_second", "eval_io_stdev_MB_per_second",
        "eval_throughput_samples_per_second_exact", "eval_read_MiB_per_second"}) {
    EXPECT_TRUE(m.contains(key)) << key;
  }
  EXPECT_EQ(m["eval_au_meet_expectation"], "success");
  EXPECT_DOUBLE_EQ(m["eval_au_stdev_percentage"].get<double>(), 0.0);
}

CheckpointOp Op(int number, double rank0, double max, Bytes bytes) {
  CheckpointOp op;
  op.number = number;
  op.rank0_duration = rank0;
  op.io = ReduceCheckpointOp({0.0, 0.0}, {rank0, max}, {bytes / 2, bytes / 2}, 4.0);
  op.time_to_durable = max;
  return op;
}

TEST(BuildSummary, CheckpointFieldsDlioRankZeroAndDlbenchOverRanks) {
  RunMetrics run = TrainRun();
  CheckpointMetrics checkpoint;
  checkpoint.nominal_size_GiB = 4.0;
  checkpoint.saves = {Op(1, 1.0, 2.0, 4 * GiB), Op(2, 2.0, 4.0, 4 * GiB)};
  checkpoint.saves[1].drain = Span{4.0, 12.0};
  checkpoint.saves[1].drained_bytes = 4 * GiB;
  checkpoint.saves[1].time_to_durable = 12.0;
  checkpoint.saves[1].backpressure = 1.5;
  run.checkpoint = checkpoint;
  const Json m = BuildSummary(run)["metric"];
  // DLIO: rank 0's durations 1 and 2 s; throughput 4 GiB / duration = 4 and 2.
  EXPECT_DOUBLE_EQ(m["save_checkpoint_duration_mean_seconds"].get<double>(), 1.5);
  EXPECT_DOUBLE_EQ(m["save_checkpoint_duration_stdev_seconds"].get<double>(), 0.5);
  EXPECT_DOUBLE_EQ(m["save_checkpoint_io_mean_GB_per_second"].get<double>(), 3.0);
  EXPECT_DOUBLE_EQ(m["save_checkpoint_io_stdev_GB_per_second"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(m["checkpoint_size_GB"].get<double>(), 4.0);
  EXPECT_FALSE(m.contains("load_checkpoint_duration_mean_seconds"));
  // dlbench: the slowest rank sets duration and MLPerf throughput.
  EXPECT_EQ(m["save_checkpoint_duration_max_seconds"], Json::array({2.0, 4.0}));
  EXPECT_EQ(m["save_checkpoint_throughput_min_GiB_per_second"], Json::array({2.0, 1.0}));
  EXPECT_EQ(m["save_checkpoint_GiB_per_second"], Json::array({2.0, 1.0}));
  EXPECT_EQ(m["save_checkpoint_rank_duration_min_seconds"], Json::array({1.0, 2.0}));
  EXPECT_EQ(m["save_checkpoint_bytes"], 8 * GiB);
  EXPECT_EQ(m["checkpoint_bytes_written"], 8 * GiB);
  EXPECT_DOUBLE_EQ(m["checkpoint_stall_mean_seconds"].get<double>(), 3.0);
  EXPECT_DOUBLE_EQ(m["checkpoint_stall_max_seconds"].get<double>(), 4.0);
  EXPECT_DOUBLE_EQ(m["checkpoint_write_GiB_per_second"].get<double>(), 8.0 / 6.0);
  EXPECT_DOUBLE_EQ(m["checkpoint_drain_GiB_per_second"].get<double>(), 0.5);
  EXPECT_EQ(m["checkpoint_drained_bytes"], 4 * GiB);
  EXPECT_DOUBLE_EQ(m["checkpoint_time_to_durable_mean_seconds"].get<double>(), 7.0);
  EXPECT_DOUBLE_EQ(m["checkpoint_time_to_durable_max_seconds"].get<double>(), 12.0);
  EXPECT_EQ(m["checkpoint_backpressure_seconds"], Json::array({0.0, 1.5}));
  EXPECT_DOUBLE_EQ(m["checkpoint_backpressure_total_seconds"].get<double>(), 1.5);
}

TEST(BuildSummary, DirectSavesHaveNoBackpressureFields) {
  RunMetrics run = TrainRun();
  CheckpointMetrics checkpoint;
  checkpoint.nominal_size_GiB = 4.0;
  checkpoint.saves = {Op(1, 1.0, 2.0, 4 * GiB)};
  run.checkpoint = checkpoint;
  const Json m = BuildSummary(run)["metric"];
  EXPECT_TRUE(m.contains("checkpoint_stall_mean_seconds"));
  EXPECT_FALSE(m.contains("checkpoint_backpressure_seconds"));
  EXPECT_FALSE(m.contains("checkpoint_backpressure_total_seconds"));
}

TEST(BuildSummary, ZeroDurationCheckpointIsOmittedNotNaN) {
  RunMetrics run = TrainRun();
  CheckpointMetrics checkpoint;
  checkpoint.nominal_size_GiB = 4.0;
  CheckpointOp load;
  load.io = ReduceCheckpointOp({1.0}, {1.0}, {0}, 4.0);
  checkpoint.loads = {load};
  run.checkpoint = checkpoint;
  const Json m = BuildSummary(run)["metric"];
  EXPECT_FALSE(m.contains("load_checkpoint_io_mean_GB_per_second"));
  EXPECT_FALSE(m.contains("load_checkpoint_GiB_per_second"));
  EXPECT_DOUBLE_EQ(m["load_checkpoint_duration_mean_seconds"].get<double>(), 0.0);
  EXPECT_FALSE(m.contains("save_checkpoint_duration_mean_seconds"));
  EXPECT_FALSE(m.contains("checkpoint_stall_mean_seconds"));
  EXPECT_TRUE(Json::accept(BuildSummary(run).dump()));
}

TEST(DataSizePerHostGiB, DliosIntegerDivisionOrder) {
  // 4 ranks per node, 8 ranks, 1 sample per file, 3 files: (4 * 1 * 3) // 8 = 1 sample.
  EXPECT_DOUBLE_EQ(DataSizePerHostGiB(4, 8, 1, 3, GiB), 1.0);
  EXPECT_DOUBLE_EQ(DataSizePerHostGiB(8, 8, 1, 168, 146.6 * MiB), 168 * 146.6 / 1024);
  EXPECT_THROW(DataSizePerHostGiB(1, 0, 1, 1, 1.0), Error);
}

}  // namespace
}  // namespace dlbench::metrics
