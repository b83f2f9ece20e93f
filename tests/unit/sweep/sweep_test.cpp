// The sweep driven without processes: a scripted run function gives each count its AU, so the
// answer of the search is known exactly.
#include "sweep/sweep.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>

#include "support/expect_error.h"
#include "support/test_support.h"
#include "sweep/sweep_table.h"

namespace dlbench::sweep {
namespace {

constexpr double kThreshold = 90;

// AU per count; a count missing from the script fails its run (exit 3). `offsets` are added to
// the AU of runs 1, 2, 3... of a point (the repeats' spread).
struct ScriptedRuns {
  std::map<int, double> au;
  std::vector<double> offsets{0};
  std::vector<int> calls;  // counts, in the order their runs were made

  RunOutcome operator()(const RunRequest& request) {
    if (request.run == 1) calls.push_back(request.accelerators);
    RunOutcome outcome;
    outcome.folder = request.folder;
    const auto at = au.find(request.accelerators);
    if (at == au.end()) {
      outcome.exit_code = 3;
      outcome.error = "dlbench: error: read failed at " + std::to_string(request.accelerators);
      return outcome;
    }
    if (at->second < 0) return outcome;  // measured no step
    outcome.au_percent = at->second + offsets[(request.run - 1) % offsets.size()];
    outcome.samples_per_second = 100.0 * request.accelerators;
    outcome.read_MiB_per_second = 10.0 * request.accelerators;
    return outcome;
  }
};

SweepResult Sweep(const SweepSettings& settings, ScriptedRuns& runs, const test::TempDir& dir,
                  std::vector<std::pair<int, bool>>* told = nullptr) {
  SweepFile file = SweepFile::Open(dir.path(), {{"id", "test"}}, kThreshold);
  return RunSweep(settings, file, std::ref(runs), [&](const PointResult& point, bool resumed) {
    if (told) told->push_back({point.accelerators, resumed});
  });
}

SweepSettings Search(int max) {
  SweepSettings settings;
  settings.max_accelerators = max;
  return settings;
}

TEST(FindMaxAccelerators, DoublesThenBisects) {
  // AU 100 - n: counts up to 10 meet 90 %.
  ScriptedRuns runs;
  for (int n = 1; n <= 64; ++n) runs.au[n] = 100.0 - n;
  test::TempDir dir;
  const SweepResult result = Sweep(Search(64), runs, dir);
  EXPECT_EQ(runs.calls, (std::vector<int>{1, 2, 4, 8, 16, 12, 10, 11}));
  ASSERT_EQ(result.searches.size(), 1u);
  EXPECT_EQ(result.searches[0].search.max_passing, 10);
  EXPECT_EQ(result.searches[0].search.first_failure, 11);
  EXPECT_FALSE(result.stopped);
}

TEST(FindMaxAccelerators, TriesTheMaximumWhenEveryDoublingPasses) {
  int probes = 0;
  const SearchResult search = FindMaxAccelerators(12, [&](int count) {
    ++probes;
    return count <= 12 ? Probe::kPass : Probe::kFail;
  });
  EXPECT_EQ(search.max_passing, 12);
  EXPECT_FALSE(search.first_failure);
  EXPECT_EQ(probes, 5);  // 1 2 4 8 12
  EXPECT_EQ(FindMaxAccelerators(1, [](int) { return Probe::kPass; }).max_passing, 1);
}

TEST(FindMaxAccelerators, NoCountPasses) {
  const SearchResult search = FindMaxAccelerators(8, [](int) { return Probe::kFail; });
  EXPECT_EQ(search.max_passing, 0);
  EXPECT_EQ(search.first_failure, 1);
}

// AU is not monotonic: 6 fails between 5 and 7 that pass. The search stops doubling at the first
// failure (8; 16 would pass but is never tried) and bisects 4..8 to 5; 7 is never run. Every probed
// point is in sweep.json.
TEST(FindMaxAccelerators, NonMonotonicPointEndsTheBisection) {
  ScriptedRuns runs;
  runs.au = {{1, 95}, {2, 95}, {4, 95}, {5, 95}, {6, 85}, {7, 95}, {8, 80}, {16, 95}};
  test::TempDir dir;
  const SweepResult result = Sweep(Search(16), runs, dir);
  EXPECT_EQ(runs.calls, (std::vector<int>{1, 2, 4, 8, 6, 5}));
  EXPECT_EQ(result.searches[0].search.max_passing, 5);
  EXPECT_EQ(result.searches[0].search.first_failure, 6);
  EXPECT_EQ(SweepFile::Load(dir / "sweep.json").points().size(), 6u);
}

// A failed run (exit != 0) fails its point, recorded with its error; the sweep goes on.
TEST(RunSweep, FailedPointIsRecordedAndTheSearchGoesOn) {
  ScriptedRuns runs;
  runs.au = {{1, 99}, {2, 98}, {4, 97}, {6, 95}, {7, 91}};  // 8 fails to run
  test::TempDir dir;
  const SweepResult result = Sweep(Search(8), runs, dir);
  EXPECT_EQ(runs.calls, (std::vector<int>{1, 2, 4, 8, 6, 7}));
  EXPECT_EQ(result.searches[0].search.max_passing, 7);
  const SweepFile file = SweepFile::Load(dir / "sweep.json");
  const std::optional<PointResult> failed = file.find({}, 8);
  ASSERT_TRUE(failed);
  EXPECT_EQ(failed->verdict, Verdict::kError);
  EXPECT_EQ(failed->error, "dlbench: error: read failed at 8");
  EXPECT_EQ(failed->runs.at(0).exit_code, 3);
  EXPECT_EQ(file.document()["max_accelerators"], 7);
  EXPECT_EQ(file.document()["complete"], true);
  EXPECT_NE(AnswerLines("w", result, kThreshold, 1).find("8: failed (dlbench: error: read"),
            std::string::npos);
}

TEST(RunSweep, StopOnErrorEndsTheSweepAtTheFailedPoint) {
  ScriptedRuns runs;
  runs.au = {{1, 99}, {2, 98}, {4, 97}, {6, 95}};
  SweepSettings settings = Search(8);
  settings.stop_on_error = true;
  test::TempDir dir;
  const SweepResult result = Sweep(settings, runs, dir);
  EXPECT_EQ(runs.calls, (std::vector<int>{1, 2, 4, 8}));
  EXPECT_TRUE(result.stopped);
  EXPECT_TRUE(result.searches[0].search.stopped);
  EXPECT_EQ(result.searches[0].search.max_passing, 4);
  EXPECT_EQ(SweepFile::Load(dir / "sweep.json").document()["complete"], false);
  EXPECT_NE(AnswerLines("w", result, kThreshold, 1).find("a lower bound"), std::string::npos);
}

// Every count up to --max-accelerators passing is a lower bound, and the answer line says so.
TEST(RunSweep, AllCountsPassingUpToTheMaximumIsALowerBound) {
  ScriptedRuns runs;
  runs.au = {{1, 99}, {2, 98}, {4, 97}};
  test::TempDir dir;
  const SweepResult result = Sweep(Search(4), runs, dir);
  EXPECT_EQ(runs.calls, (std::vector<int>{1, 2, 4}));
  EXPECT_EQ(result.searches[0].search.max_passing, 4);
  EXPECT_FALSE(result.searches[0].search.first_failure);
  EXPECT_EQ(AnswerLines("w", result, kThreshold, 1),
            "w: 4 accelerator(s) per host meet AU >= 90 % (median AU 97.00 % over 1 run); every "
            "count tried passed, up to --max-accelerators: a lower bound (raise it)\n");
}

// A point whose run measured no step (AU would read 0 %) is "unmeasured", not an AU of 0, and
// does not pass.
TEST(RunSweep, RunWithoutMeasuredStepIsUnmeasured) {
  ScriptedRuns runs;
  runs.au = {{1, 99}, {2, -1}};
  test::TempDir dir;
  const SweepResult result = Sweep(Search(2), runs, dir);
  EXPECT_EQ(result.searches[0].search.max_passing, 1);
  const PointResult& point = result.points.back();
  EXPECT_EQ(point.verdict, Verdict::kUnmeasured);
  EXPECT_FALSE(point.au_median_percent);
  EXPECT_NE(TableRow(point, false).find("n/a"), std::string::npos);
  EXPECT_NE(TableRow(point, false).find("no step measured"), std::string::npos);
  EXPECT_TRUE(SweepFile::Load(dir / "sweep.json")
                  .document()["points"][1]["au_median_percentage"]
                  .is_null());
}

// Each point runs --repeat times; the verdict is the median's, the spread is kept.
TEST(RunSweep, RepeatsJudgeTheMedian) {
  ScriptedRuns runs;
  runs.au = {{1, 91}, {2, 89.5}};
  runs.offsets = {-3, 0, 1};  // 1: 88 91 92 (median 91: pass); 2: 86.5 89.5 90.5 (fail)
  SweepSettings settings = Search(2);
  settings.repeat = 3;
  test::TempDir dir;
  const SweepResult result = Sweep(settings, runs, dir);
  EXPECT_EQ(result.searches[0].search.max_passing, 1);
  const PointResult& first = result.points[0];
  ASSERT_EQ(first.runs.size(), 3u);
  EXPECT_EQ(first.runs[2].folder, "accelerators-1/run-3");
  EXPECT_DOUBLE_EQ(*first.au_median_percent, 91);
  EXPECT_DOUBLE_EQ(*first.au_min_percent, 88);
  EXPECT_DOUBLE_EQ(*first.au_max_percent, 92);
  EXPECT_EQ(first.verdict, Verdict::kPass);
  EXPECT_EQ(result.points[1].verdict, Verdict::kFail);
  EXPECT_EQ(AnswerLines("resnet50", result, kThreshold, 3),
            "resnet50: 1 accelerator(s) per host meet AU >= 90 % (median AU 91.00 % over 3 runs); "
            "2: median AU 89.50 %\n");
}

// An interrupted sweep rerun with the same arguments keeps its completed points.
TEST(RunSweep, ResumeKeepsCompletedPoints) {
  test::TempDir dir;
  ScriptedRuns runs;
  for (int n = 1; n <= 16; ++n) runs.au[n] = 100.0 - n;
  {
    SweepFile file = SweepFile::Open(dir.path(), {{"id", "test"}}, kThreshold);
    int made = 0;
    EXPECT_THROW(RunSweep(
                     Search(16), file,
                     [&](const RunRequest& request) {
                       if (++made == 4) throw Error(ExitCode::kIo, "interrupted");
                       return runs(request);
                     },
                     [](const PointResult&, bool) {}),
                 Error);
  }
  EXPECT_EQ(SweepFile::Load(dir / "sweep.json").points().size(), 3u);  // 1 2 4
  EXPECT_EQ(SweepFile::Load(dir / "sweep.json").document()["complete"], false);
  runs.calls.clear();
  std::vector<std::pair<int, bool>> told;
  const SweepResult result = Sweep(Search(16), runs, dir, &told);
  EXPECT_EQ(runs.calls, (std::vector<int>{8, 16, 12, 10, 11}));
  EXPECT_EQ(told.at(0), std::make_pair(1, true));
  EXPECT_EQ(told.at(2), std::make_pair(4, true));
  EXPECT_EQ(told.at(3), std::make_pair(8, false));
  EXPECT_EQ(result.searches[0].search.max_passing, 10);
  EXPECT_EQ(SweepFile::Load(dir / "sweep.json").points().size(), 8u);
}

TEST(SweepFile, RefusesAFolderOfAnotherSweep) {
  test::TempDir dir;
  SweepFile::Open(dir.path(), {{"workload", "a"}, {"repeat", 1}}, kThreshold).save();
  test::ExpectError(
      [&] {
        SweepFile::Open(dir.path(), {{"workload", "a"}, {"repeat", 3}}, kThreshold);
      },
      ExitCode::kUsage, {"holds another sweep", "repeat (recorded 1, given 3)"});
  dir.write("not/sweep.json", "{\"x\": 1}");
  test::ExpectError([&] { SweepFile::Open(dir / "not", {}, kThreshold); }, ExitCode::kUsage,
                    {"not a dlbench sweep"});
  dir.write("bad/sweep.json", "{");
  test::ExpectError([&] { SweepFile::Load(dir / "bad/sweep.json"); }, ExitCode::kUsage,
                    {"not JSON"});
  test::ExpectError([&] { SweepFile::Load(dir / "missing/sweep.json"); }, ExitCode::kIo,
                    {"missing/sweep.json"});
}

// --grid with --max-accelerators: a search at every grid point, each in its own folder.
TEST(RunSweep, GridSearchesEachPoint) {
  test::TempDir dir;
  SweepSettings settings = Search(8);
  settings.grid = {ParseGridAxis("reader.read_threads=1,4")};
  std::vector<std::string> folders;
  SweepFile file = SweepFile::Open(dir.path(), {{"id", "grid"}}, kThreshold);
  const SweepResult result = RunSweep(
      settings, file,
      [&](const RunRequest& request) {
        folders.push_back(request.folder);
        RunOutcome outcome;
        outcome.folder = request.folder;
        const int threads = std::stoi(request.grid.at(0).value);
        outcome.au_percent = request.accelerators <= threads + 1 ? 95.0 : 50.0;  // max 2, 5
        return outcome;
      },
      [](const PointResult&, bool) {});
  ASSERT_EQ(result.searches.size(), 2u);
  EXPECT_EQ(result.searches[0].search.max_passing, 2);
  EXPECT_EQ(result.searches[1].search.max_passing, 5);
  EXPECT_EQ(folders.front(), "reader.read_threads=1/accelerators-1/run-1");
  EXPECT_EQ(folders.back(), "reader.read_threads=4/accelerators-5/run-1");
  const Json document = SweepFile::Load(dir / "sweep.json").document();
  EXPECT_EQ(document["max_accelerators"], 5);
  EXPECT_EQ(document["searches"][1]["grid"]["reader.read_threads"], "4");
  EXPECT_EQ(document["searches"][1]["max_accelerators"], 5);
}

// --grid alone: every combination once, at the fixed count.
TEST(RunSweep, GridWithoutSearchRunsEveryCombination) {
  test::TempDir dir;
  SweepSettings settings;
  settings.accelerators = 2;
  settings.grid = {ParseGridAxis("reader.read_threads=1,2"),
                   ParseGridAxis("reader.batch_size=4,8,16")};
  ScriptedRuns runs;
  runs.au = {{2, 93}};
  const SweepResult result = Sweep(settings, runs, dir);
  ASSERT_EQ(result.points.size(), 6u);
  EXPECT_TRUE(result.searches.empty());
  EXPECT_EQ(result.points[4].folder, "reader.read_threads=2,reader.batch_size=8/accelerators-2");
  const Json document = SweepFile::Load(dir / "sweep.json").document();
  EXPECT_TRUE(document["max_accelerators"].is_null());
  EXPECT_EQ(document["points"].size(), 6u);
  EXPECT_EQ(document["points"][5]["grid"]["reader.batch_size"], "16");
  EXPECT_NE(FinalTable(result.points, true).find("reader.read_threads=2 reader.batch_size=16"),
            std::string::npos);
}

TEST(RunOutcomeFromSummary, ReadsTheTrainingMetrics) {
  const Json summary = Json::parse(R"({"metric": {"train_au_mean_percentage": 92.5,
      "train_au_measured_steps": [10, 10], "train_throughput_mean_samples_per_second": 1200.0,
      "train_read_MiB_per_second": 130.5}})");
  const RunOutcome run = RunOutcomeFromSummary(summary, "a/run-1", "x/summary.json");
  EXPECT_EQ(run.folder, "a/run-1");
  EXPECT_DOUBLE_EQ(*run.au_percent, 92.5);
  EXPECT_DOUBLE_EQ(run.samples_per_second, 1200);
  EXPECT_DOUBLE_EQ(run.read_MiB_per_second, 130.5);
  Json unmeasured = summary;
  unmeasured["metric"]["train_au_mean_percentage"] = 0.0;
  unmeasured["metric"]["train_au_measured_steps"] = {10, 0};
  EXPECT_FALSE(RunOutcomeFromSummary(unmeasured, "a", "s").au_percent);
  test::ExpectError(
      [] { RunOutcomeFromSummary(Json::parse(R"({"metric": {}})"), "a", "x/summary.json"); },
      ExitCode::kIo, {"x/summary.json", "train_au_mean_percentage"});
}

TEST(Point, RoundTripsThroughJson) {
  PointResult point;
  point.grid = {{"reader.read_threads", "4"}};
  point.accelerators = 3;
  point.folder = "f";
  point.runs = {{"f/run-1", 0, "", 91.0, 10, 1}, {"f/run-2", 3, "boom", std::nullopt, 0, 0}};
  Judge(point, kThreshold);
  EXPECT_EQ(point.verdict, Verdict::kError);
  EXPECT_EQ(point.error, "boom");
  const PointResult back = PointFromJson(PointToJson(point));
  EXPECT_EQ(PointToJson(back), PointToJson(point));
  test::ExpectError([] { PointFromJson(Json::parse(R"({"grid": {}})")); }, ExitCode::kUsage,
                    {"sweep.json"});
  EXPECT_DOUBLE_EQ(Median({3, 1, 2, 10}), 2.5);
}

}  // namespace
}  // namespace dlbench::sweep
