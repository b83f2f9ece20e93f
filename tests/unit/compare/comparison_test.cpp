#include "compare/comparison.h"

#include <gtest/gtest.h>

#include "compare/comparison_format.h"
#include "support/expect_error.h"
#include "util/error.h"

namespace dlbench::compare {
namespace {

// A run whose summary.json holds `samples_per_second` and `stall` (seconds).
Run MakeRun(double samples_per_second, double stall, const std::string& name = "r") {
  Run run;
  run.source = name + "/summary.json";
  run.summary = {{"workload", {{"name", "unet3d"}}},
                 {"num_accelerators", 2},
                 {"metric",
                  {{"train_throughput_mean_samples_per_second", samples_per_second},
                   {"checkpoint_stall_mean_seconds", stall}}}};
  return run;
}

RunSet MakeSet(const std::vector<double>& rates, double rate_scale = 1, double stall_scale = 1) {
  RunSet set;
  set.argument = "set";
  for (std::size_t i = 0; i < rates.size(); ++i) {
    set.runs.push_back(MakeRun(rates[i] * rate_scale, 2.0 * stall_scale * rates[i] / 100,
                               "run" + std::to_string(i)));
  }
  return set;
}

CompareSettings Settings() {
  CompareSettings settings;
  settings.metrics = HeadlineMetrics();
  return settings;
}

const MetricRow& Row(const Comparison& comparison, const std::string& label) {
  for (const MetricRow& row : comparison.rows) {
    if (row.spec.label == label) return row;
  }
  throw std::runtime_error("no row " + label);
}

const std::vector<double> kNoisy = {100, 103, 98, 101, 99, 102, 97};

TEST(Compare, IdenticalRunsPass) {
  const Comparison c = Compare(MakeSet(kNoisy), MakeSet(kNoisy), Settings());
  EXPECT_FALSE(c.regression());
  ASSERT_EQ(c.rows.size(), 2u);  // the headline metrics these runs have
  const MetricRow& rate = Row(c, "train samples/s");
  EXPECT_EQ(rate.verdict, Verdict::kSame);
  EXPECT_EQ(rate.method, Method::kRankTest);
  EXPECT_DOUBLE_EQ(*rate.ratio, 1.0);
  EXPECT_DOUBLE_EQ(rate.u_test->p_value, 1.0);
  EXPECT_EQ(c.skipped.size(), HeadlineMetrics().size() - 2);
}

TEST(Compare, TwentyPercentDropIsARegression) {
  const Comparison c = Compare(MakeSet(kNoisy), MakeSet(kNoisy, 0.8), Settings());
  EXPECT_TRUE(c.regression());
  const MetricRow& rate = Row(c, "train samples/s");
  EXPECT_EQ(rate.verdict, Verdict::kRegression);
  EXPECT_NEAR(*rate.ratio, 0.8, 1e-12);
  EXPECT_LT(rate.u_test->p_value, 0.05);
  EXPECT_EQ(Row(c, "checkpoint stall s").verdict, Verdict::kSame);
}

TEST(Compare, ImprovementIsNotARegression) {
  const Comparison c = Compare(MakeSet(kNoisy), MakeSet(kNoisy, 1.3), Settings());
  EXPECT_FALSE(c.regression());
  EXPECT_EQ(Row(c, "train samples/s").verdict, Verdict::kImproved);
}

TEST(Compare, LongerStallIsARegression) {
  // Lower is better for the stall: 30 % longer fails, 30 % shorter is an improvement.
  const Comparison longer = Compare(MakeSet(kNoisy), MakeSet(kNoisy, 1, 1.3), Settings());
  EXPECT_TRUE(longer.regression());
  EXPECT_EQ(Row(longer, "checkpoint stall s").verdict, Verdict::kRegression);
  EXPECT_EQ(Row(longer, "train samples/s").verdict, Verdict::kSame);
  const Comparison shorter = Compare(MakeSet(kNoisy), MakeSet(kNoisy, 1, 0.7), Settings());
  EXPECT_FALSE(shorter.regression());
  EXPECT_EQ(Row(shorter, "checkpoint stall s").verdict, Verdict::kImproved);
}

TEST(Compare, DropWithinToleranceIsTheSame) {
  CompareSettings settings = Settings();
  settings.tolerance = 0.25;
  EXPECT_FALSE(Compare(MakeSet(kNoisy), MakeSet(kNoisy, 0.8), settings).regression());
}

TEST(Compare, OverlappingNoiseBeyondToleranceIsNotSignificant) {
  // Medians 15 % apart but the samples interleave: the rank test does not reject.
  const RunSet baseline = MakeSet({100, 60, 140, 70, 130});
  const RunSet current = MakeSet({85, 55, 135, 65, 125});
  const Comparison c = Compare(baseline, current, Settings());
  const MetricRow& rate = Row(c, "train samples/s");
  EXPECT_EQ(rate.verdict, Verdict::kNoise);
  EXPECT_GT(rate.u_test->p_value, 0.05);
  EXPECT_FALSE(c.regression());
}

TEST(Compare, SingleRunFallsBackToTolerance) {
  const Comparison c = Compare(MakeSet({100}), MakeSet({80}), Settings());
  const MetricRow& rate = Row(c, "train samples/s");
  EXPECT_EQ(rate.method, Method::kToleranceOneRun);
  EXPECT_FALSE(rate.u_test.has_value());
  EXPECT_EQ(rate.verdict, Verdict::kRegression);
  EXPECT_FALSE(Compare(MakeSet({100}), MakeSet({95}), Settings()).regression());
}

TEST(Compare, TooFewRunsForTheRankTestFallBackToTolerance) {
  // 3 runs a side: the smallest possible p is 0.1, so the U test cannot decide at 0.05.
  const Comparison c = Compare(MakeSet({100, 101, 99}), MakeSet({80, 81, 79}), Settings());
  const MetricRow& rate = Row(c, "train samples/s");
  EXPECT_EQ(rate.method, Method::kToleranceFewRuns);
  ASSERT_TRUE(rate.u_test.has_value());
  EXPECT_DOUBLE_EQ(rate.u_test->p_value, 0.1);
  EXPECT_EQ(rate.verdict, Verdict::kRegression);
}

TEST(Compare, MetricMissingOnOneSideIsAUsageError) {
  RunSet current = MakeSet(kNoisy);
  current.runs[2].summary["metric"].erase("checkpoint_stall_mean_seconds");
  dlbench::test::ExpectError([&] { Compare(MakeSet(kNoisy), current, Settings()); },
                             ExitCode::kUsage,
                             {"checkpoint_stall_mean_seconds is missing from "
                              "run2/summary.json"});
}

// A phase one side ran and the other did not (a single run that also generated its dataset,
// against a --repeat set whose runs did not) is left out: the phases in common decide.
TEST(Compare, APhaseOnOneSideIsLeftOutWithANote) {
  RunSet current = MakeSet(kNoisy, 0.8);
  for (auto& run : current.runs) run.summary["generation"]["total"]["MiB_per_second"] = 250.0;
  const Comparison c = Compare(MakeSet(kNoisy), current, Settings());
  EXPECT_TRUE(c.regression());
  EXPECT_EQ(c.rows.size(), 2u);
  ASSERT_EQ(c.one_sided.size(), 1u);
  EXPECT_EQ(c.one_sided[0].spec.phase, "generation");
  EXPECT_FALSE(c.one_sided[0].in_baseline);
  EXPECT_EQ(c.one_sided[0].example, "run0/summary.json");
}

TEST(Compare, NoPhaseInCommonIsAUsageError) {
  RunSet current = MakeSet({100});
  current.runs[0].summary.erase("metric");
  current.runs[0].summary["generation"]["total"]["MiB_per_second"] = 250.0;
  dlbench::test::ExpectError([&] { Compare(MakeSet(kNoisy), current, Settings()); },
                             ExitCode::kUsage,
                             {"no metric to compare", "ran no phase in common",
                              "(baseline ran train, checkpoint (run0/summary.json); current ran "
                              "generation (run0/summary.json))"});
  RunSet empty = MakeSet({100});
  empty.runs[0].summary.erase("metric");
  dlbench::test::ExpectError([&] { Compare(empty, empty, Settings()); }, ExitCode::kUsage,
                             {"no headline metric is in the runs compared"});
}

// A short run (one block of 2 steps an epoch, exclude_start_steps 2): DLIO's throughput and AU
// are 0, the exact throughput is `exact` samples/s.
RunSet ShortRunSet(const std::vector<double>& exact, double scale = 1) {
  RunSet set;
  set.argument = "short";
  for (std::size_t i = 0; i < exact.size(); ++i) {
    Run run;
    run.source = "short" + std::to_string(i) + "/summary.json";
    run.summary = {{"workload", {{"name", "unet3d"}}},
                   {"metric",
                    {{"train_throughput_samples_per_second", {0.0, 0.0}},
                     {"train_throughput_mean_samples_per_second", 0.0},
                     {"train_throughput_mean_samples_per_second_exact", exact[i] * scale},
                     {"train_au_measured_steps", {0, 0}},
                     {"train_au_mean_percentage", 0.0}}}};
    set.runs.push_back(std::move(run));
  }
  return set;
}

TEST(Compare, UnmeasuredHeadlinesAreLeftOutAndTheExactThroughputDecides) {
  // Before: 0 against 0 was "same" for both, and halving the exact rate passed.
  const Comparison c = Compare(ShortRunSet(kNoisy), ShortRunSet(kNoisy, 0.5), Settings());
  EXPECT_TRUE(c.regression());
  ASSERT_EQ(c.rows.size(), 1u);
  EXPECT_EQ(c.rows[0].spec.path, "metric.train_throughput_mean_samples_per_second_exact");
  EXPECT_EQ(c.rows[0].spec.label, "train samples/s exact");
  EXPECT_EQ(c.rows[0].verdict, Verdict::kRegression);
  ASSERT_EQ(c.one_sided.size(), 2u);
  EXPECT_EQ(c.one_sided[0].spec.label, "train samples/s");
  EXPECT_NE(c.one_sided[0].reason.find("at most 2 steps"), std::string::npos);
  EXPECT_TRUE(c.one_sided[0].in_baseline);
  EXPECT_EQ(c.one_sided[0].example, "short0/summary.json");
  EXPECT_EQ(c.one_sided[1].spec.label, "train AU %");
  EXPECT_NE(c.one_sided[1].reason.find("no step was measured"), std::string::npos);
  const std::vector<std::string> notes = OneSidedNotes(c);
  ASSERT_EQ(notes.size(), 2u);
  EXPECT_EQ(notes[0],
            "train samples/s not compared: DLIO's rate is 0 for blocks of at most 2 steps "
            "((steps - 2) * batch) (e.g. short0/summary.json); "
            "metric.train_throughput_mean_samples_per_second_exact is compared instead when "
            "present");
  EXPECT_FALSE(Compare(ShortRunSet(kNoisy), ShortRunSet(kNoisy), Settings()).regression());
}

TEST(Compare, AMetricUnmeasuredOnOneSideOrInOneRunIsLeftOut) {
  // A long baseline against a short current run: DLIO's rate is not compared, not even the
  // baseline's real one against the current 0 (that would be a false regression).
  RunSet baseline = ShortRunSet(kNoisy);
  for (compare::Run& run : baseline.runs) {
    run.summary["metric"]["train_throughput_samples_per_second"] = {100.0, 100.0};
    run.summary["metric"]["train_throughput_mean_samples_per_second"] = 100.0;
    run.summary["metric"]["train_au_measured_steps"] = {8, 8};
    run.summary["metric"]["train_au_mean_percentage"] = 90.0;
  }
  RunSet current = ShortRunSet(kNoisy);
  current.runs[3].summary["metric"]["train_au_measured_steps"] = {8, 8};  // one run measured AU
  const Comparison c = Compare(baseline, current, Settings());
  EXPECT_FALSE(c.regression());
  ASSERT_EQ(c.rows.size(), 1u);
  EXPECT_EQ(c.rows[0].spec.label, "train samples/s exact");
  ASSERT_EQ(c.one_sided.size(), 2u);
  EXPECT_FALSE(c.one_sided[0].in_baseline);
  EXPECT_EQ(c.one_sided[1].example, "short0/summary.json");
}

TEST(Compare, AGenerationThatKeptEveryFileIsNotARate) {
  // The current run found its dataset there and generated nothing (MiB/s 0): not a -100 %
  // regression of the generation rate.
  RunSet baseline = MakeSet(kNoisy);
  RunSet current = MakeSet(kNoisy);
  for (compare::Run& run : baseline.runs) {
    run.summary["generation"]["total"] = {{"files", 8}, {"MiB_per_second", 250.0}};
  }
  for (compare::Run& run : current.runs) {
    run.summary["generation"]["total"] = {{"files", 0}, {"MiB_per_second", 0.0}};
  }
  const Comparison c = Compare(baseline, current, Settings());
  EXPECT_FALSE(c.regression());
  EXPECT_EQ(c.rows.size(), 2u);
  ASSERT_EQ(c.one_sided.size(), 1u);
  EXPECT_EQ(c.one_sided[0].spec.label, "generation MiB/s");
  EXPECT_FALSE(c.one_sided[0].in_baseline);
  EXPECT_NE(c.one_sided[0].reason.find("generated no file"), std::string::npos);
}

TEST(Compare, NothingMeasuredIsTheNoMetricUsageError) {
  // A short run set from before the exact throughput: no headline metric remains.
  RunSet old = ShortRunSet({100, 101});
  for (compare::Run& run : old.runs) {
    run.summary["metric"].erase("train_throughput_mean_samples_per_second_exact");
  }
  dlbench::test::ExpectError(
      [&] { Compare(old, old, Settings()); }, ExitCode::kUsage,
      {"no metric to compare", "did not measure", "train samples/s: DLIO's rate is 0",
       "train AU %: no step", "(short0/summary.json)"});
}

TEST(Compare, AnUnmeasuredMetricAskedByNameIsStillCompared) {
  // --metric asks for the number itself: it must be on both sides and is compared as it is.
  CompareSettings settings;
  settings.metrics = {NamedMetric("metric.train_au_mean_percentage")};
  const Comparison c = Compare(ShortRunSet(kNoisy), ShortRunSet(kNoisy, 0.5), settings);
  ASSERT_EQ(c.rows.size(), 1u);
  EXPECT_TRUE(c.one_sided.empty());
  EXPECT_EQ(c.rows[0].verdict, Verdict::kSame);
}

TEST(Compare, TheExactThroughputAskedByNameIsOneRow) {
  CompareSettings settings = Settings();
  AddOrUpdate(settings, NamedMetric("metric.train_throughput_mean_samples_per_second_exact"));
  const Comparison c = Compare(ShortRunSet(kNoisy), ShortRunSet(kNoisy, 0.5), settings);
  ASSERT_EQ(c.rows.size(), 1u);
  EXPECT_EQ(c.rows[0].spec.label, "metric.train_throughput_mean_samples_per_second_exact");
  EXPECT_EQ(c.rows[0].verdict, Verdict::kRegression);
}

TEST(Compare, AMetricAskedByNameOnOneSideIsAUsageError) {
  CompareSettings settings = Settings();
  AddOrUpdate(settings, NamedMetric("metric.train_batch_wait_p99_seconds"));
  RunSet current = MakeSet(kNoisy);
  for (auto& run : current.runs) run.summary["metric"]["train_batch_wait_p99_seconds"] = 0.1;
  dlbench::test::ExpectError(
      [&] { Compare(MakeSet(kNoisy), current, settings); }, ExitCode::kUsage,
      {"train_batch_wait_p99_seconds is missing from run0/summary.json", "must be on both sides"});
}

TEST(Compare, MetricAskedByNameMustExist) {
  CompareSettings settings = Settings();
  AddOrUpdate(settings, NamedMetric("metric.train_batch_wait_p99_seconds"));
  dlbench::test::ExpectError([&] { Compare(MakeSet(kNoisy), MakeSet(kNoisy), settings); },
                             ExitCode::kUsage, {"train_batch_wait_p99_seconds is in none"});
}

TEST(Compare, MetricAskedByNameIsCompared) {
  CompareSettings settings = Settings();
  AddOrUpdate(settings, NamedMetric("num_accelerators"));
  const Comparison c = Compare(MakeSet(kNoisy), MakeSet(kNoisy), settings);
  EXPECT_EQ(Row(c, "num_accelerators").verdict, Verdict::kSame);
}

TEST(Compare, DifferentWorkloadsAreRefusedUnlessForced) {
  RunSet current = MakeSet(kNoisy);
  current.runs[0].summary["num_accelerators"] = 4;
  dlbench::test::ExpectError([&] { Compare(MakeSet(kNoisy), current, Settings()); },
                             ExitCode::kUsage, {"num_accelerators: 2 vs 4"});
  CompareSettings forced = Settings();
  forced.force = true;
  EXPECT_NO_THROW(Compare(MakeSet(kNoisy), current, forced));
}

// summary.json repeats num_files_train, num_samples_per_file and epochs at the top level (DLIO's
// fields) and in its workload block: a difference is listed once, under workload., in the
// baseline's key order, with both values. Before, num_files_train and epochs were listed twice.
TEST(Compare, EachDifferingKeyIsListedOnceInAStableOrder) {
  const auto set_of = [](std::int64_t files, std::int64_t epochs, const std::string& name) {
    RunSet set = MakeSet(kNoisy);
    for (compare::Run& run : set.runs) {
      run.summary["workload"] = {
          {"name", name}, {"num_files_train", files}, {"epochs", epochs}, {"batch_size", 4}};
      run.summary["num_files_train"] = files;
      run.summary["epochs"] = epochs;
    }
    return set;
  };
  const std::string message = dlbench::test::ExpectError(
      [&] { Compare(set_of(64, 2, "unet3d"), set_of(128, 3, "unet3d"), Settings()); },
      ExitCode::kUsage, {});
  EXPECT_NE(message.find("ran different workloads (use --force to compare them anyway):\n"
                         "  workload.num_files_train: 64 vs 128\n"
                         "  workload.epochs: 2 vs 3"),
            std::string::npos)
      << message;
  EXPECT_EQ(message.find("num_files_train"), message.rfind("num_files_train")) << message;
  EXPECT_EQ(message.find("epochs"), message.rfind("epochs")) << message;
  EXPECT_EQ(message.find("name"), std::string::npos) << message;
  // A top-level field that the workload block lacks (older summaries) is still compared.
  RunSet old = MakeSet(kNoisy);
  old.runs[0].summary["num_files_eval"] = 8;
  RunSet other = MakeSet(kNoisy);
  for (compare::Run& run : other.runs) run.summary["num_files_eval"] = 16;
  dlbench::test::ExpectError([&] { Compare(old, other, Settings()); }, ExitCode::kUsage,
                             {"\n  num_files_eval: 8 vs 16"});
}

TEST(Compare, AnIncompleteRunOnEitherSideIsRefusedEvenForced) {
  CompareSettings forced = Settings();
  forced.force = true;
  for (const bool on_baseline : {true, false}) {
    RunSet baseline = MakeSet(kNoisy);
    RunSet current = MakeSet(kNoisy);
    (on_baseline ? baseline : current).runs[1].summary["run_status"] = {
        {"complete", false}, {"phase", "train"}, {"exit_code", 3}, {"error", "read failed"}};
    for (const CompareSettings& settings : {Settings(), forced}) {
      dlbench::test::ExpectError([&] { Compare(baseline, current, settings); }, ExitCode::kUsage,
                                 {"run1/summary.json is the summary of an incomplete run",
                                  "stopped in phase train: read failed (exit 3)"});
    }
  }
  // Complete, or written before run_status existed: compared.
  RunSet complete = MakeSet(kNoisy);
  complete.runs[0].summary["run_status"] = {
      {"complete", true}, {"phase", "done"}, {"exit_code", 0}, {"error", nullptr}};
  EXPECT_NO_THROW(Compare(complete, MakeSet(kNoisy), Settings()));
}

TEST(Compare, ZeroBaselineStall) {
  // No stall before, some now: a regression of unbounded size, reported without a ratio.
  RunSet baseline = MakeSet({100});
  baseline.runs[0].summary["metric"]["checkpoint_stall_mean_seconds"] = 0;
  const Comparison c = Compare(baseline, MakeSet({100}), Settings());
  EXPECT_FALSE(Row(c, "checkpoint stall s").ratio.has_value());
  EXPECT_EQ(Row(c, "checkpoint stall s").verdict, Verdict::kRegression);
}

// Markdown joins lines that are not separated by a blank line: in a CI job summary the header
// read "Baseline: 5 run(s) from set Current: 5 run(s) from set Values are ...". Each side is a
// list item, the note its own paragraph.
TEST(CompareFormat, MarkdownHeaderLinesStaySeparate) {
  const Comparison c = Compare(MakeSet(kNoisy), MakeSet(kNoisy, 0.8), Settings());
  const std::string text =
      FormatComparison(c, MakeSet(kNoisy), MakeSet(kNoisy, 0.8), Format::kMarkdown);
  EXPECT_EQ(text.rfind("- Baseline: 7 run(s) from set\n- Current: 7 run(s) from set\n\n"
                       "Values are medians over the runs.\n\n| metric |",
                       0),
            0u)
      << text;
}

// The outcome line agrees with its count: "no regression in 1 metrics" before.
TEST(CompareFormat, OutcomeCountsOneMetric) {
  Comparison c = Compare(MakeSet(kNoisy), MakeSet(kNoisy), Settings());
  ASSERT_FALSE(c.rows.empty());
  c.rows.resize(1);
  c.rows[0].verdict = Verdict::kNoise;
  const std::string text = FormatComparison(c, MakeSet(kNoisy), MakeSet(kNoisy), Format::kTerminal);
  EXPECT_NE(text.find("Result: no regression in 1 metric"), std::string::npos) << text;
  EXPECT_EQ(text.find("1 metrics"), std::string::npos) << text;
  c.rows[0].verdict = Verdict::kRegression;
  const std::string worse =
      FormatComparison(c, MakeSet(kNoisy), MakeSet(kNoisy), Format::kTerminal);
  EXPECT_NE(worse.find("Result: REGRESSION in 1 of 1 metric"), std::string::npos) << worse;
}

}  // namespace
}  // namespace dlbench::compare
