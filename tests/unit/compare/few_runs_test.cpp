// Verdicts with too few runs for the rank test, and the warning about sides noisier than the
// tolerance.
#include <gtest/gtest.h>

#include "compare/comparison.h"
#include "compare/comparison_format.h"

namespace dlbench::compare {
namespace {

// A set of runs that hold only DLIO's training rate, `rates[i]` samples/s in run i.
RunSet RateSet(const std::vector<double>& rates, const std::string& name) {
  RunSet set;
  set.argument = name;
  for (std::size_t i = 0; i < rates.size(); ++i) {
    Run run;
    run.source = name + "/run-" + std::to_string(i + 1) + "/summary.json";
    run.summary = {{"workload", {{"name", "unet3d"}}},
                   {"metric", {{"train_throughput_mean_samples_per_second", rates[i]}}}};
    set.runs.push_back(std::move(run));
  }
  return set;
}

MetricRow RateRow(const std::vector<double>& baseline, const std::vector<double>& current) {
  CompareSettings settings;
  settings.metrics = HeadlineMetrics();
  const Comparison c = Compare(RateSet(baseline, "base"), RateSet(current, "cur"), settings);
  EXPECT_EQ(c.rows.size(), 1u);
  return c.rows.at(0);
}

// Two --repeat 3 sets of the same command: medians 19.9 % apart, the baseline's own runs 83 %
// apart. It was a REGRESSION decided by the tolerance alone (p = 0.4); the ranges overlap, so
// nothing can be said.
TEST(CompareFewRuns, OverlappingRangesAreInconclusiveNotARegression) {
  const MetricRow row = RateRow({100, 55, 138}, {80.1, 70, 120});
  EXPECT_EQ(row.method, Method::kToleranceFewRuns);
  EXPECT_NEAR(*row.ratio, 0.801, 1e-12);
  EXPECT_EQ(row.verdict, Verdict::kInconclusive);
  EXPECT_STREQ(VerdictName(row.verdict), "inconclusive");
  // The same runs, and the same as the improvement: not "improved" either.
  EXPECT_EQ(RateRow({80.1, 70, 120}, {100, 55, 138}).verdict, Verdict::kInconclusive);
}

// With 4 runs a side the rank test decides, and p < 0.05 requires every run of one side beyond
// every run of the other: fewer runs must not fail on less.
TEST(CompareFewRuns, NeverStricterThanWithRunsEnoughForTheRankTest) {
  const MetricRow four = RateRow({100, 99, 101, 80}, {79, 81, 78, 100});
  EXPECT_EQ(four.method, Method::kRankTest);
  EXPECT_EQ(four.verdict, Verdict::kNoise);
  const MetricRow three = RateRow({100, 99, 101}, {79, 81, 100});
  EXPECT_EQ(three.method, Method::kToleranceFewRuns);
  EXPECT_EQ(three.verdict, Verdict::kInconclusive);
  // Separated ranges: a regression with 3 a side as with 4.
  EXPECT_EQ(RateRow({100, 99, 101}, {79, 81, 80}).verdict, Verdict::kRegression);
  EXPECT_EQ(RateRow({100, 99, 101, 98}, {79, 81, 80, 82}).verdict, Verdict::kRegression);
  // Within the tolerance stays "same" whatever the ranges.
  EXPECT_EQ(RateRow({100, 60, 140}, {95, 60, 140}).verdict, Verdict::kSame);
}

TEST(CompareFewRuns, ASingleRunMustBeOutsideTheOtherSidesRange) {
  const MetricRow inside = RateRow({100, 70, 120}, {80});
  EXPECT_EQ(inside.method, Method::kToleranceOneRun);
  EXPECT_EQ(inside.verdict, Verdict::kInconclusive);
  EXPECT_EQ(RateRow({100, 95, 105}, {80}).verdict, Verdict::kRegression);
  // One run a side: two different values do not overlap; the tolerance decides, as before.
  EXPECT_EQ(RateRow({100}, {80}).verdict, Verdict::kRegression);
  EXPECT_EQ(RateRow({100}, {130}).verdict, Verdict::kImproved);
}

TEST(CompareFewRuns, ASideSpreadWiderThanTheToleranceIsWarnedInEveryFormat) {
  const RunSet base = RateSet({100, 55, 138}, "base");
  const RunSet cur = RateSet({80.1, 79, 81}, "cur");
  CompareSettings settings;
  settings.metrics = HeadlineMetrics();
  const Comparison c = Compare(base, cur, settings);
  ASSERT_EQ(c.rows.size(), 1u);
  EXPECT_NEAR(*c.rows[0].baseline_spread, 0.83, 1e-12);
  EXPECT_TRUE(c.rows[0].noisy(true));
  EXPECT_FALSE(c.rows[0].noisy(false));
  const std::vector<std::string> warnings = SpreadWarnings(c);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0].rfind("train samples/s: the baseline runs spread 83% (max - min over the "
                              "median), more than the tolerance 10%",
                              0),
            0u)
      << warnings[0];
  const std::string terminal = FormatComparison(c, base, cur, Format::kTerminal);
  EXPECT_NE(terminal.find("\nWARNING: " + warnings[0] + "\n"), std::string::npos) << terminal;
  EXPECT_NE(terminal.find("inconclusive  tolerance 10% and no overlap (too few runs for p<0.05)"),
            std::string::npos)
      << terminal;
  const std::string markdown = FormatComparison(c, base, cur, Format::kMarkdown);
  EXPECT_NE(markdown.find("> **Warning:** " + warnings[0]), std::string::npos) << markdown;
  const std::string json = FormatComparison(c, base, cur, Format::kJson);
  EXPECT_NE(json.find("\"noisy\": true"), std::string::npos) << json;
  EXPECT_NE(json.find("\"relative_spread\": 0.83"), std::string::npos) << json;
  EXPECT_NE(json.find("\"warnings\": [\n    \"train samples/s: the baseline"), std::string::npos)
      << json;
  // Quiet sides: no warning.
  EXPECT_TRUE(SpreadWarnings(Compare(cur, cur, settings)).empty());
}

}  // namespace
}  // namespace dlbench::compare
