// The report's headline table and per-epoch charts of hand-made runs: a metric a run holds without
// having measured it (an epoch with no measured step, DLIO's rate of blocks of at most 2 steps) is
// "n/a" with its reason, never its 0 (hardening3; before, the table showed 0 and the charts drew
// the 0s).
#include "report/html_report.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "compare/run_set.h"
#include "mark_titles.h"
#include "support/test_support.h"

namespace dlbench::report {
namespace {

using test::TempDir;

compare::Run WriteRun(const TempDir& dir, const metrics::Json& metric) {
  dir.write("summary.json", metrics::Json{{"metric", metric}}.dump());
  return compare::LoadRunSet(dir.path().string()).runs[0];
}

// Epoch 1 had no measured step (the exclusions covered it) and blocks of 2 steps; epoch 2 both.
metrics::Json HalfMeasured() {
  return {{"train_au_percentage", {0, 99.5}},
          {"train_au_min_percentage", {0, 99}},
          {"train_au_max_percentage", {0, 100}},
          {"train_au_measured_steps", {0, 6}},
          {"train_au_mean_percentage", 49.75},
          {"train_throughput_samples_per_second", {0, 200}},
          {"train_throughput_mean_samples_per_second", 100},
          {"train_read_MiB_per_second", 50}};
}

metrics::Json Measured() {
  return {{"train_au_percentage", {99, 99.25}},
          {"train_au_measured_steps", {6, 6}},
          {"train_au_mean_percentage", 99.125},
          {"train_throughput_samples_per_second", {150, 160}},
          {"train_throughput_mean_samples_per_second", 155},
          {"train_throughput_samples_per_second_exact", {170, 180}},
          {"train_throughput_mean_samples_per_second_exact", 175},
          {"train_read_MiB_per_second", 60}};
}

// The cells of the table row labelled `label`.
std::string Row(const std::string& html, const std::string& label) {
  const std::size_t start = html.find("<tr><td>" + label + "</td>");
  if (start == std::string::npos) return "";
  return html.substr(start, html.find("</tr>", start) - start);
}

TEST(HtmlReport, UnmeasuredHeadlineMetricsAreNotApplicableWithTheirReason) {
  const TempDir a, b;
  const std::string html = BuildHtmlReport({WriteRun(a, HalfMeasured()), WriteRun(b, Measured())});
  const std::string au = Row(html, "train AU %");
  EXPECT_NE(au.find("<td title=\"no step was measured in an epoch (the exclude_start/end_steps "
                    "cover all its steps)\">n/a</td>"),
            std::string::npos)
      << au;
  EXPECT_EQ(au.find("49.75"), std::string::npos) << au;
  EXPECT_NE(au.find("<td>99.12</td>"), std::string::npos) << au;  // no change against an n/a
  const std::string rate = Row(html, "train samples/s");
  EXPECT_NE(rate.find(">n/a</td>"), std::string::npos) << rate;
  EXPECT_NE(rate.find("<td>155</td>"), std::string::npos) << rate;
  // The exact rate replaces DLIO's, as in `dlbench compare`: run a has none (an unmeasured epoch).
  EXPECT_EQ(Row(html, "train samples/s exact"),
            "<tr><td>train samples/s exact</td><td>higher</td>"
            "<td>-</td><td>175</td>");
  EXPECT_NE(Row(html, "train read MiB/s").find("<td>60 <span class=\"good\"> (+20.0%)</span>"),
            std::string::npos);
  EXPECT_NE(html.find("<li>train AU %: n/a where no step was measured in an epoch"),
            std::string::npos);
  EXPECT_NE(html.find("<li>train samples/s: n/a where DLIO's rate is 0 for blocks of at most 2 "
                      "steps ((steps - 2) * batch); the exact rate of the measured steps instead"),
            std::string::npos);

  // Run a's charts leave epoch 1 out and say so; run b's draw both epochs.
  const std::string run_a = html.substr(html.find("<h2>Run "), html.rfind("<h2>Run "));
  EXPECT_EQ(MarkTitles(run_a, "AU per epoch"),
            (std::set<std::string>{"mean over ranks at 2: 99.5", "min rank at 2: 99",
                                   "max rank at 2: 100"}));
  EXPECT_EQ(MarkTitles(run_a, "Training throughput per epoch"),
            (std::set<std::string>{"DLIO at 2: 200"}));
  EXPECT_NE(run_a.find("AU: 1 epoch(s) not drawn, n/a: no step was measured"), std::string::npos);
  EXPECT_NE(run_a.find("DLIO throughput: 1 epoch(s) not drawn, n/a: DLIO's rate is 0"),
            std::string::npos);
  const std::string run_b = html.substr(html.rfind("<h2>Run "));
  EXPECT_EQ(MarkTitles(run_b, "Training throughput per epoch"),
            (std::set<std::string>{"DLIO at 1: 150", "DLIO at 2: 160", "measured steps at 1: 170",
                                   "measured steps at 2: 180"}));
  EXPECT_EQ(run_b.find("not drawn"), std::string::npos);
}

TEST(HtmlReport, ARunWithNoMeasuredEpochDrawsNoAuChart) {
  const TempDir a;
  metrics::Json metric = HalfMeasured();
  metric["train_au_measured_steps"] = {0, 0};
  metric["train_throughput_samples_per_second"] = {0, 0};
  const std::string html = BuildHtmlReport({WriteRun(a, metric)});
  EXPECT_EQ(html.find("<title>AU per epoch</title>"), std::string::npos);
  EXPECT_EQ(html.find("<title>Training throughput per epoch</title>"), std::string::npos);
  EXPECT_NE(html.find("AU: 2 epoch(s) not drawn"), std::string::npos);
  EXPECT_NE(html.find("DLIO throughput: 2 epoch(s) not drawn"), std::string::npos);
}

// A run without a burst buffer has no drain: no bar of 0 s for it (hardening3), a note instead.
TEST(HtmlReport, ADirectCheckpointRunHasNoDrainBar) {
  const TempDir burst, direct;
  const std::string html =
      BuildHtmlReport({WriteRun(burst, {{"checkpoint_stall_mean_seconds", 0.25},
                                        {"checkpoint_drained_bytes", 4294967296.0},
                                        {"checkpoint_drain_GiB_per_second", 2},
                                        {"save_checkpoint_duration_max_seconds", {0.25, 0.25}},
                                        {"checkpoint_time_to_durable_mean_seconds", 1.5}}),
                       WriteRun(direct, {{"checkpoint_stall_mean_seconds", 2.5},
                                         {"save_checkpoint_duration_max_seconds", {2.5, 2.5}},
                                         {"checkpoint_time_to_durable_mean_seconds", 2.5}})});
  std::set<std::string> drains;
  for (const std::string& mark : MarkTitles(html, "Checkpoint: stall, drain and time to durable")) {
    if (mark.starts_with("drain (mean)")) drains.insert(mark);
  }
  EXPECT_EQ(drains,
            (std::set<std::string>{"drain (mean), " + burst.path().filename().string() + ": 1"}));
  EXPECT_NE(html.find("Drain: not drawn for 1 run(s) without a burst buffer"), std::string::npos);
}

// Two `--repeat` sets: both have run-1 and run-2. The columns read "run-1, run-2, run-1, run-2"
// and two sections were "Run run-1": each run is now named with its set's folder.
TEST(HtmlReport, RunsOfTwoSetsAreToldApartByTheirSet) {
  const TempDir dir;
  std::vector<compare::Run> runs;
  for (const char* set : {"base", "cur"}) {
    for (const char* run : {"run-1", "run-2"}) {
      dir.write(std::string(set) + "/" + run + "/summary.json",
                metrics::Json{{"metric", Measured()}}.dump());
    }
    const compare::RunSet loaded = compare::LoadRunSet((dir / set).string());
    runs.insert(runs.end(), loaded.runs.begin(), loaded.runs.end());
  }
  const std::string html = BuildHtmlReport(runs, "Result: no regression in 3 metrics");
  EXPECT_NE(html.find("<th>base/run-1</th><th>base/run-2</th><th>cur/run-1</th><th>cur/run-2</th>"),
            std::string::npos)
      << html.substr(0, 2000);
  for (const char* label : {"base/run-1", "base/run-2", "cur/run-1", "cur/run-2"}) {
    EXPECT_NE(html.find("<h2>Run " + std::string(label) + "</h2>"), std::string::npos) << label;
  }
  EXPECT_EQ(html.find("<h2>Run run-1</h2>"), std::string::npos);
  // compare's result line wraps in the page instead of scrolling it sideways.
  EXPECT_NE(html.find("<pre class=\"compare\">Result: no regression"), std::string::npos);
  EXPECT_NE(html.find("pre.compare{white-space:pre-wrap"), std::string::npos);
  // Runs whose folders differ by name keep just the name.
  const TempDir a, b;
  const std::string two = BuildHtmlReport({WriteRun(a, Measured()), WriteRun(b, Measured())});
  EXPECT_NE(two.find("<h2>Run " + a.path().filename().string() + "</h2>"), std::string::npos);
}

}  // namespace
}  // namespace dlbench::report
