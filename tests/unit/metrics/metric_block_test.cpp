// The "[METRIC]" block and the terminal table.
#include <gtest/gtest.h>

#include "metrics/summary.h"

namespace dlbench::metrics {
namespace {

RunMetrics TrainingRun() {
  RunMetrics run;
  run.info.num_accelerators = 8;
  run.au_expectation = 0.9;
  run.record_length_bytes = MiB;
  PhaseMetrics train;
  for (int e = 0; e < 2; ++e) {
    PhaseEpoch epoch;
    epoch.epoch = e + 1;
    epoch.au_percent = e == 0 ? 94.0 : 95.0;
    epoch.dlio_samples_per_second = e == 0 ? 1000.0 : 1010.0;
    epoch.exact_samples_per_second = epoch.dlio_samples_per_second + 4;
    epoch.read_bytes = 1000 * MiB;
    epoch.read_spans = {{2.0 * e, 2.0 * e + 1}};
    epoch.breakdown.measured_steps = 8;
    train.epochs.push_back(epoch);
  }
  run.train = train;
  return run;
}

TEST(MetricBlock, TrainingOnlyWordingAndOrderAsDlio) {
  EXPECT_EQ(MetricBlock(TrainingRun()),
            "Averaged metric over all steps/epochs\n"
            "[METRIC] ==========================================================\n"
            "[METRIC] Number of Simulated Accelerators: 8 \n"
            "[METRIC] Training Accelerator Utilization [AU] (%): 94.5000 (0.5000)\n"
            "[METRIC] Training Throughput (samples/second): 1005.0000 (5.0000)\n"
            "[METRIC] Training I/O Throughput (MB/second): 1005.0000 (5.0000)\n"
            "[METRIC] train_au_meet_expectation: success\n"
            "[METRIC] ==========================================================\n");
}

TEST(MetricBlock, CheckpointLinesBeforeEvalLines) {
  RunMetrics run = TrainingRun();
  PhaseMetrics eval;
  PhaseEpoch epoch;
  epoch.au_percent = 50;
  epoch.dlio_samples_per_second = 3;
  epoch.breakdown.measured_steps = 4;
  eval.epochs.push_back(epoch);
  run.eval = eval;
  CheckpointMetrics checkpoint;
  checkpoint.nominal_size_GiB = 2;
  CheckpointOp save;
  save.rank0_duration = 4;
  save.io = ReduceCheckpointOp({0.0}, {4.0}, {2 * GiB}, 2);
  checkpoint.saves = {save};
  checkpoint.loads = {save};
  run.checkpoint = checkpoint;
  const std::string text = MetricBlock(run);
  const std::string expected_tail =
      "[METRIC] train_au_meet_expectation: success\n"
      "[METRIC] Checkpoint save duration (seconds): 4.0000 (0.0000)\n"
      "[METRIC] Checkpoint save I/O Throughput (GB/second): 0.5000 (0.0000)\n"
      "[METRIC] Checkpoint load duration (seconds): 4.0000 (0.0000)\n"
      "[METRIC] Checkpoint load I/O Throughput (GB/second): 0.5000 (0.0000)\n"
      "[METRIC] Eval Accelerator Utilization [AU] (%): 50.0000 (0.0000)\n"
      "[METRIC] Eval Throughput (samples/second): 3.000000 (0.000000)\n"
      "[METRIC] Eval Throughput (MB/second): 3.000000 (0.000000)\n"
      "[METRIC] eval_au_meet_expectation: fail\n"
      "[METRIC] ==========================================================\n";
  ASSERT_GE(text.size(), expected_tail.size());
  EXPECT_EQ(text.substr(text.size() - expected_tail.size()), expected_tail);
}

TEST(MetricBlock, CheckpointOnlyRun) {
  RunMetrics run;
  run.info.num_accelerators = 2;
  CheckpointMetrics checkpoint;
  checkpoint.nominal_size_GiB = 1;
  CheckpointOp save;
  save.rank0_duration = 0;  // unmeasurably fast: no throughput, printed as n/a, never "nan"
  save.io = ReduceCheckpointOp({0.0}, {0.0}, {GiB}, 1);
  checkpoint.saves = {save};
  run.checkpoint = checkpoint;
  EXPECT_EQ(MetricBlock(run),
            "Averaged metric over all steps/epochs\n"
            "[METRIC] ==========================================================\n"
            "[METRIC] Number of Simulated Accelerators: 2 \n"
            "[METRIC] Checkpoint save duration (seconds): 0.0000 (0.0000)\n"
            "[METRIC] Checkpoint save I/O Throughput (GB/second): n/a (n/a)\n"
            "[METRIC] ==========================================================\n");
}

TEST(TerminalTable, ShowsBothDefinitionsWithUnits) {
  const std::string table = TerminalTable(TrainingRun());
  EXPECT_NE(table.find("Training\n"), std::string::npos);
  EXPECT_NE(table.find("94.50  %"), std::string::npos);
  EXPECT_NE(table.find("1009.00  samples/s"), std::string::npos);  // exact
  EXPECT_NE(table.find("1005.00  samples/s"), std::string::npos);  // DLIO
  EXPECT_NE(table.find("1000.00  MiB/s"), std::string::npos);      // bytes actually read
  EXPECT_NE(table.find("1.049  GB/s"), std::string::npos);
  EXPECT_EQ(table.find("Checkpoint"), std::string::npos);
  EXPECT_EQ(table.find("latency"), std::string::npos);  // absent values are not printed
}

// An epoch of at most 2 steps gets 0 from DLIO's (steps − 2) formula: the table says why.
TEST(TerminalTable, SaysWhyDliosThroughputIsZero) {
  RunMetrics run = TrainingRun();
  for (PhaseEpoch& epoch : run.train->epochs) epoch.dlio_samples_per_second = 0;
  const std::string table = TerminalTable(run);
  EXPECT_NE(table.find("0.00  samples/s (DLIO counts steps - 2 per block: 0 here)"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("0.00  MiB/s (DLIO counts steps - 2 per block: 0 here)"), std::string::npos)
      << table;
  EXPECT_EQ(TerminalTable(TrainingRun()).find("steps - 2"), std::string::npos);
}

// One step per epoch with the default exclude_start_steps: 1 measures no step: the table says
// n/a and why, instead of DLIO's "0.00 % fail" (an accelerator that never computed), 100 AU
// points lost to the loop, and DLIO's throughput of (1 - 2) steps, a negative rate.
TEST(TerminalTable, NoMeasuredStepIsNotApplicableNotZeroPercent) {
  RunMetrics run = TrainingRun();
  for (PhaseEpoch& epoch : run.train->epochs) {
    epoch.au_percent = 0;
    epoch.dlio_samples_per_second = 0;
    epoch.exact_samples_per_second.reset();
    epoch.breakdown.measured_steps = 0;
    epoch.breakdown.other_points = 100;
  }
  const std::string table = TerminalTable(run);
  EXPECT_NE(table.find("AU, mean over ranks and epochs            n/a  (no step measured in an "
                       "epoch: output.metric.exclude_start_steps and exclude_end_steps cover all "
                       "its steps)"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("AU meets expectation                      n/a\n"), std::string::npos)
      << table;
  EXPECT_NE(table.find("throughput (dlbench: measured steps)      n/a\n"), std::string::npos)
      << table;
  EXPECT_NE(table.find("0.00  samples/s (DLIO counts steps - 2 per block: 0 here)"),
            std::string::npos)
      << table;
  EXPECT_EQ(table.find("fail"), std::string::npos) << table;
  EXPECT_EQ(table.find("AU lost"), std::string::npos) << table;
  EXPECT_EQ(TerminalTable(TrainingRun()).find("n/a"), std::string::npos);
}

TEST(TerminalTable, BurstBufferSavesShowTheirBackpressure) {
  RunMetrics run = TrainingRun();
  CheckpointOp save;
  save.io = ReduceCheckpointOp({0.0}, {2.0}, {GiB}, 1.0);
  save.drain = Span{1.0, 9.0};
  save.drained_bytes = GiB;
  save.backpressure = 0.75;
  run.checkpoint = CheckpointMetrics{1.0, {save, save}, {}};
  const std::string table = TerminalTable(run);
  const std::size_t row = table.find("of it backpressure, total");
  ASSERT_NE(row, std::string::npos) << table;
  EXPECT_NE(table.find("1.500  s", row), std::string::npos) << table;
}

// A read-only checkpoint run (MLPerf's second invocation) showed only rank 0's DLIO figures;
// the loads' rate over all ranks (what `compare` calls checkpoint read GiB/s) was in
// summary.json alone. Two loads of 1 GiB by two ranks, the slowest taking 1 s and 0.5 s: 1.5.
TEST(TerminalTable, LoadsShowTheirReadRateOverAllRanks) {
  RunMetrics run = TrainingRun();
  CheckpointOp slow;
  slow.io = ReduceCheckpointOp({0.0, 0.0}, {1.0, 0.5}, {GiB / 2, GiB / 2}, 1.0);
  CheckpointOp fast;
  fast.io = ReduceCheckpointOp({0.0, 0.0}, {0.5, 0.25}, {GiB / 2, GiB / 2}, 1.0);
  run.checkpoint = CheckpointMetrics{1.0, {}, {slow, fast}};
  const std::string table = TerminalTable(run);
  const std::size_t row = table.find("load read rate, all ranks");
  ASSERT_NE(row, std::string::npos) << table;
  const std::string line = table.substr(row, table.find('\n', row) - row);
  EXPECT_NE(line.find(" 1.500  GiB/s"), std::string::npos) << table;
  EXPECT_EQ(table.find("save write rate"), std::string::npos) << table;  // no save, no row
}

TEST(TerminalTable, StepBreakdownMeansOverEpochs) {
  RunMetrics run = TrainingRun();
  run.train->epochs[0].breakdown.load_points = 0.5;
  run.train->epochs[1].breakdown.load_points = 0.25;
  run.train->epochs[0].breakdown.barrier_skew_points = 1.0;
  run.train->epochs[1].breakdown.compute_overshoot = 0.004;
  const std::string table = TerminalTable(run);
  EXPECT_NE(table.find("AU lost to load waits (storage)"), std::string::npos);
  EXPECT_NE(table.find("0.375  points"), std::string::npos);  // mean of 0.5 and 0.25
  EXPECT_NE(table.find("0.500  points"), std::string::npos);  // waiting for the last rank
  EXPECT_NE(table.find("compute overshoot per epoch"), std::string::npos);
  EXPECT_NE(table.find("2.000  ms"), std::string::npos);  // mean of 4 ms and 0 ms
}

// One step per rank with exclude_start_steps: 1: DLIO's AU of 0 stays, and a line says that it
// measured nothing.
TEST(MetricBlock, SaysWhenAnEpochMeasuredNoStep) {
  RunMetrics run = TrainingRun();
  run.train->epochs[1].breakdown.measured_steps = 0;
  const std::string text = MetricBlock(run);
  EXPECT_NE(text.find("[METRIC] train_au_measured_steps: an epoch measured no step"),
            std::string::npos);
  EXPECT_EQ(MetricBlock(TrainingRun()).find("measured no step"), std::string::npos);
}

}  // namespace
}  // namespace dlbench::metrics
