#include "compare/run_set.h"

#include <gtest/gtest.h>

#include <functional>
#include <source_location>
#include <string>

#include "support/expect_error.h"
#include "support/test_support.h"
#include "util/error.h"

namespace dlbench::compare {
namespace {

constexpr const char* kSummary =
    R"({"metric": {"train_au_mean_percentage": 91.5, "train_au_percentage": [90, 93]}})";

std::string UsageMessage(const std::function<void()>& body,
                         std::source_location where = std::source_location::current()) {
  return test::ExpectError(body, ExitCode::kUsage, {}, where);
}

TEST(RunSet, RunFolderSummaryFileFolderOfRunsAndGlob) {
  test::TempDir dir;
  dir.write("one/summary.json", kSummary);
  dir.write("repeat/run-1/summary.json", kSummary);
  dir.write("repeat/run-2/summary.json", kSummary);
  dir.write("repeat/generate/summary.json", kSummary);  // not a run: aggregate.json lists them
  dir.write("repeat/aggregate.json", R"({"runs": ["run-1/summary.json", "run-2/summary.json"]})");
  dir.write("several/a/summary.json", kSummary);
  dir.write("several/b/c/summary.json", kSummary);
  EXPECT_EQ(LoadRunSet((dir / "one").string()).runs.size(), 1u);
  EXPECT_EQ(LoadRunSet((dir / "one/summary.json").string()).runs.size(), 1u);
  const RunSet repeat = LoadRunSet((dir / "repeat").string());
  ASSERT_EQ(repeat.runs.size(), 2u);
  EXPECT_EQ(repeat.runs[0].source, (dir / "repeat/run-1/summary.json").string());
  EXPECT_EQ(LoadRunSet((dir / "*/run-*").string()).runs.size(), 2u);
  EXPECT_EQ(LoadRunSet((dir / "several").string()).runs.size(), 2u);
  // Below a folder, a --repeat folder still stands for the runs its aggregate.json lists.
  EXPECT_EQ(LoadRunSet(dir.path().string()).runs.size(), 5u);
  EXPECT_EQ(LoadRunSet((dir / "*").string()).runs.size(), 5u);
}

TEST(RunSet, UnreadableInputIsAUsageErrorNamingThePath) {
  test::TempDir dir;
  dir.write("bad/summary.json", "{\"metric\": {");
  dir.write("array/summary.json", "[1, 2]");
  dir.write("overflow/summary.json", R"({"metric": {"train_au_mean_percentage": 1e400}})");
  dir.write("empty/nothing.txt", "");
  dir.write("no_runs/aggregate.json", R"({"runs": []})");
  EXPECT_NE(UsageMessage([&] { LoadRunSet((dir / "bad").string()); }).find("is not valid JSON"),
            std::string::npos);
  // A number beyond double's range is the JSON library's out_of_range, not its parse_error.
  EXPECT_NE(UsageMessage([&] {
              LoadRunSet((dir / "overflow").string());
            }).find("overflow/summary.json is not valid JSON"),
            std::string::npos);
  EXPECT_NE(
      UsageMessage([&] { LoadRunSet((dir / "array").string()); }).find("expected a JSON object"),
      std::string::npos);
  EXPECT_NE(
      UsageMessage([&] { LoadRunSet((dir / "empty").string()); }).find("holds no summary.json"),
      std::string::npos);
  EXPECT_NE(UsageMessage([&] { LoadRunSet((dir / "no_runs").string()); }).find("lists no runs"),
            std::string::npos);
  EXPECT_NE(UsageMessage([&] { LoadRunSet((dir / "missing").string()); }).find("does not exist"),
            std::string::npos);
  EXPECT_NE(UsageMessage([&] { LoadRunSet((dir / "nothing-*").string()); }).find("matches no"),
            std::string::npos);
}

TEST(RunSet, MetricValueFollowsDottedPathsAndAveragesLists) {
  const metrics::Json summary = metrics::Json::parse(kSummary);
  EXPECT_DOUBLE_EQ(*MetricValue(summary, "metric.train_au_mean_percentage", "s"), 91.5);
  EXPECT_DOUBLE_EQ(*MetricValue(summary, "metric.train_au_percentage", "s"), 91.5);
  EXPECT_FALSE(MetricValue(summary, "metric.nothing", "s").has_value());
  EXPECT_FALSE(MetricValue(summary, "metric.train_au_mean_percentage.deeper", "s").has_value());
  EXPECT_NE(UsageMessage([&] { MetricValue(summary, "metric", "s"); }).find("not a number"),
            std::string::npos);
}

TEST(RunSet, IncompleteRunNoteSaysThePhaseAndWhy) {
  const auto status = [](metrics::Json run_status) {
    return metrics::Json{{"run_status", std::move(run_status)}};
  };
  EXPECT_EQ(IncompleteRunNote(metrics::Json::parse(kSummary)), "");  // before run_status
  EXPECT_EQ(IncompleteRunNote(status({{"complete", true}, {"phase", "done"}})), "");
  EXPECT_EQ(IncompleteRunNote(status({{"complete", false},
                                      {"phase", "checkpoint"},
                                      {"exit_code", 3},
                                      {"error", "cannot write ckpt/a.pt"}})),
            "stopped in phase checkpoint: cannot write ckpt/a.pt (exit 3)");
  EXPECT_EQ(
      IncompleteRunNote(status(
          {{"complete", false}, {"phase", "train"}, {"exit_code", nullptr}, {"error", nullptr}})),
      "stopped in phase train (killed, or still running)");
  // Whatever else the file holds, anything but complete: true is incomplete.
  EXPECT_EQ(IncompleteRunNote(status({{"complete", "yes"}})),
            "stopped in phase ? (killed, or still running)");
  EXPECT_EQ(IncompleteRunNote(status(metrics::Json::object())),
            "stopped in phase ? (killed, or still running)");
}

TEST(RunSet, CheckCompleteNamesTheFile) {
  compare::Run run{"out/summary.json",
                   {{"run_status", {{"complete", false}, {"phase", "generate"}}}}};
  EXPECT_NE(UsageMessage([&] { CheckComplete(run); })
                .find("out/summary.json is the summary of an incomplete run (stopped in phase "
                      "generate (killed, or still running)); compare only runs that completed"),
            std::string::npos);
  run.summary["run_status"]["complete"] = true;
  EXPECT_NO_THROW(CheckComplete(run));
}

}  // namespace
}  // namespace dlbench::compare
