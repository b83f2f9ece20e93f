#include "report/sweep_report.h"

#include <gtest/gtest.h>

#include "mark_titles.h"
#include "support/test_support.h"

namespace dlbench::report {
namespace {

sweep::PointResult Point(sweep::GridPoint grid, int accelerators, std::optional<double> au,
                         double samples) {
  sweep::PointResult point;
  point.grid = std::move(grid);
  point.accelerators = accelerators;
  point.folder = "accelerators-" + std::to_string(accelerators);
  sweep::RunOutcome run;
  run.folder = point.folder + "/run-1";
  run.au_percent = au;
  run.samples_per_second = samples;
  run.read_MiB_per_second = samples / 10;
  point.runs = {run};
  sweep::Judge(point, 90);
  return point;
}

// AU and throughput against the count, the threshold drawn, an unmeasured point left out.
TEST(SweepReport, DrawsAuAndThroughputAgainstTheCount) {
  test::TempDir dir;
  sweep::SweepFile file = sweep::SweepFile::Open(dir.path(), {{"repeat", 1}}, 90);
  file.set("workload", "resnet50");
  for (const auto& point : {Point({}, 1, 99, 100), Point({}, 2, 95, 200), Point({}, 4, 80, 300),
                            Point({}, 3, std::nullopt, 250)}) {
    file.add(point);
  }
  sweep::SearchResult search;
  search.max_passing = 2;
  search.first_failure = 3;
  file.set_searches({{{}, search}});
  file.set_complete(true);
  const std::string html = BuildSweepReport(file);
  EXPECT_NE(html.find("<h1>dlbench sweep: resnet50</h1>"), std::string::npos);
  EXPECT_NE(html.find("resnet50: 2 accelerator(s) per host meet AU &gt;= 90 %"), std::string::npos);
  EXPECT_EQ(MarkTitles(html, "Median AU"),
            (std::set<std::string>{"all at 1: 99", "all at 2: 95", "all at 4: 80",
                                   "threshold at 1: 90", "threshold at 4: 90"}));
  EXPECT_EQ(
      MarkTitles(html, "Throughput"),
      (std::set<std::string>{"all at 1: 100", "all at 2: 200", "all at 3: 250", "all at 4: 300"}));
  EXPECT_NE(html.find("measured no step"), std::string::npos);  // the table's row for 3
  EXPECT_EQ(html.find("not complete"), std::string::npos);
}

TEST(SweepReport, GridWithoutSearchIsBarsPerPoint) {
  test::TempDir dir;
  sweep::SweepFile file = sweep::SweepFile::Open(dir.path(), {{"repeat", 1}}, 90);
  file.add(Point({{"reader.read_threads", "1"}}, 2, 70, 50));
  file.add(Point({{"reader.read_threads", "4"}}, 2, 93, 90));
  const std::string html = BuildSweepReport(file);
  EXPECT_EQ(MarkTitles(html, "Median AU").size(), 2u);
  EXPECT_NE(html.find("reader.read_threads=4 @2"), std::string::npos);
  EXPECT_NE(html.find("not complete"), std::string::npos);
}

}  // namespace
}  // namespace dlbench::report
