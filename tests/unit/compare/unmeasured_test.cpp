#include "compare/unmeasured.h"

#include <gtest/gtest.h>

#include "compare/comparison.h"
#include "compare/comparison_format.h"

namespace dlbench::compare {
namespace {

// Runs of a workload whose emulated compute per step is `computation_time` s: AU `au[i]` % and
// DLIO's rate 100 samples/s in run i.
RunSet AuSet(const std::vector<double>& au, double computation_time, const std::string& name) {
  RunSet set;
  set.argument = name;
  for (std::size_t i = 0; i < au.size(); ++i) {
    Run run;
    run.source = name + "/run-" + std::to_string(i + 1) + "/summary.json";
    run.summary = {{"workload", {{"name", "unet3d"}, {"computation_time", computation_time}}},
                   {"metric",
                    {{"train_throughput_mean_samples_per_second", 100.0},
                     {"train_au_mean_percentage", au[i]}}}};
    set.runs.push_back(std::move(run));
  }
  return set;
}

CompareSettings Headlines() {
  CompareSettings settings;
  settings.metrics = HeadlineMetrics();
  return settings;
}

// Without emulated compute AU was compared: 0.3 % against 4 % read as +1,200 % "improved", or a
// -92 % REGRESSION the other way round. It measures no storage: left out with the reason.
TEST(Unmeasured, AuOfAWorkloadWithoutComputeIsLeftOutWithANote) {
  const RunSet base = AuSet({4.1, 3.9, 4.0, 4.2, 3.8}, 0, "base");
  const RunSet cur = AuSet({0.3, 0.31, 0.29, 0.3, 0.32}, 0, "cur");
  const Comparison c = Compare(base, cur, Headlines());
  EXPECT_FALSE(c.regression());
  ASSERT_EQ(c.rows.size(), 1u);
  EXPECT_EQ(c.rows[0].spec.label, "train samples/s");
  ASSERT_EQ(c.one_sided.size(), 1u);
  EXPECT_EQ(c.one_sided[0].spec.label, "train AU %");
  EXPECT_EQ(c.one_sided[0].reason,
            "the workload emulates no compute (train.computation_time 0): AU then measures no "
            "storage");
  const std::vector<std::string> notes = OneSidedNotes(c);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0].rfind("train AU % not compared: the workload emulates no compute", 0), 0u);
  EXPECT_EQ(
      UnmeasuredReason(HeadlineMetric("metric.train_au_mean_percentage"), base.runs[0].summary),
      c.one_sided[0].reason);
  // With compute, the same AU drop is compared and fails.
  const Comparison with_compute =
      Compare(AuSet({4.1, 3.9, 4.0, 4.2, 3.8}, 0.01, "base"),
              AuSet({0.3, 0.31, 0.29, 0.3, 0.32}, 0.01, "cur"), Headlines());
  EXPECT_TRUE(with_compute.regression());
  EXPECT_EQ(with_compute.rows.size(), 2u);
  EXPECT_TRUE(UnmeasuredReason(HeadlineMetric("metric.train_au_mean_percentage"),
                               AuSet({1}, 0.01, "x").runs[0].summary)
                  .empty());
}

}  // namespace
}  // namespace dlbench::compare
