// The `run --repeat` aggregate of hand-made runs: a headline metric that a run holds without
// having measured it is listed under "unmeasured" with its reason and shown as "n/a" in the table,
// followed by the exact rate that replaces DLIO's (hardening3; the table showed a median of 0).
#include "compare/aggregate.h"

#include <gtest/gtest.h>

#include <string>

namespace dlbench::compare {
namespace {

Run AggregatedRun(int i, double dlio, double exact, int measured_steps, double au) {
  Run run;
  run.source = "out/run-" + std::to_string(i) + "/summary.json";
  run.summary = {{"metric",
                  {{"train_throughput_samples_per_second", {dlio, dlio}},
                   {"train_throughput_mean_samples_per_second", dlio},
                   {"train_throughput_mean_samples_per_second_exact", exact},
                   {"train_au_measured_steps", {6, measured_steps}},
                   {"train_au_mean_percentage", au},
                   {"train_read_MiB_per_second", exact / 10}}}};
  return run;
}

TEST(Aggregate, UnmeasuredHeadlineMetricsAreNotApplicableWithTheirReason) {
  RunSet runs;
  runs.runs = {AggregatedRun(1, 0, 120, 6, 99), AggregatedRun(2, 0, 130, 0, 49)};
  const metrics::Json aggregate = AggregateRuns(runs, "out");
  EXPECT_EQ(aggregate["unmeasured"],
            (metrics::Json{{"metric.train_throughput_mean_samples_per_second",
                            {{"reason",
                              "DLIO's rate is 0 for blocks of at most 2 steps ((steps - 2) * "
                              "batch)"},
                             {"run", "run-1/summary.json"}}},
                           {"metric.train_au_mean_percentage",
                            {{"reason",
                              "no step was measured in an epoch (the exclude_start/end_steps "
                              "cover all its steps)"},
                             {"run", "run-2/summary.json"}}}}));
  // summary.json's numbers are all still aggregated, as summary.json keeps them.
  EXPECT_EQ(aggregate["metrics"]["metric.train_au_mean_percentage"]["median"], 74);
  EXPECT_EQ(AggregateTable(aggregate),
            "Over 2 runs (median, min .. max, spread):\n"
            "  train samples/s                   n/a   (run-1/summary.json: DLIO's rate is 0 for "
            "blocks of at most 2 steps ((steps - 2) * batch))\n"
            "  train samples/s exact             125   120 .. 130   8%\n"
            "  train AU %                        n/a   (run-2/summary.json: no step was measured "
            "in an epoch (the exclude_start/end_steps cover all its steps))\n"
            "  train read MiB/s                 12.5   12 .. 13   8%\n");
}

TEST(Aggregate, MeasuredRunsHaveNothingUnmeasured) {
  RunSet runs;
  runs.runs = {AggregatedRun(1, 100, 120, 6, 99), AggregatedRun(2, 110, 130, 6, 98)};
  const metrics::Json aggregate = AggregateRuns(runs, "out");
  EXPECT_TRUE(aggregate["unmeasured"].empty());
  EXPECT_EQ(AggregateTable(aggregate),
            "Over 2 runs (median, min .. max, spread):\n"
            "  train samples/s                   105   100 .. 110   10%\n"
            "  train AU %                       98.5   98 .. 99   1%\n"
            "  train read MiB/s                 12.5   12 .. 13   8%\n");
}

}  // namespace
}  // namespace dlbench::compare
