// The report's opening section: each run's findings with their evidence and suggestion, what
// changed against the first run, and a note for a run without any.
#include "report/insights_html.h"

#include <gtest/gtest.h>

namespace dlbench::report {
namespace {

compare::Run RunWithFindings(metrics::Json insights) {
  compare::Run run;
  run.source = "out/run/summary.json";
  run.summary = {{"insights", std::move(insights)}};
  return run;
}

metrics::Json StorageBound() {
  return {{"id", "storage_bound"},
          {"severity", "high"},
          {"message", "Load waits cost 40 AU points <a lot>."},
          {"evidence",
           {{{"metric", "metric.train_au_loss_load_percentage"},
             {"value", 40.0},
             {"unit", "AU points"},
             {"threshold", 10},
             {"comparison", ">="}}}},
          {"suggestion", "Stage the dataset."}};
}

TEST(InsightsSection, ListsEachRunsFindingsAndWhatChanged) {
  const std::string html = InsightsSection(
      {RunWithFindings(metrics::Json::array()), RunWithFindings({StorageBound()})}, {"a", "b"});
  EXPECT_EQ(html.find("<h2>Insights</h2>"), 0U);
  EXPECT_NE(html.find("<h3>a</h3>\n<p class=\"note\">No finding"), std::string::npos);
  EXPECT_NE(html.find("<tr class=\"high\"><td>high</td><td><b>storage_bound</b>: Load waits cost "
                      "40 AU points &lt;a lot&gt;.</td>"),
            std::string::npos);
  EXPECT_NE(html.find("metric.train_au_loss_load_percentage = 40 AU points (threshold &gt;= 10)"),
            std::string::npos);
  EXPECT_NE(html.find("<td>Stage the dataset.</td>"), std::string::npos);
  EXPECT_NE(html.find("Insights that differ (b against a): storage_bound appeared (high)"),
            std::string::npos);
}

TEST(InsightsSection, OneRunHasNoRunHeading) {
  const std::string html = InsightsSection({RunWithFindings({StorageBound()})}, {"a"});
  EXPECT_EQ(html.find("<h3>"), std::string::npos);
  EXPECT_EQ(html.find("differ"), std::string::npos);
}

}  // namespace
}  // namespace dlbench::report
