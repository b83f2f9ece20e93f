#include "workflow/run_results.h"

#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "support/test_support.h"
#include "util/build_info.h"

namespace dlbench::workflow {
namespace {

metrics::Json ReadSummary(const test::TempDir& dir) {
  std::ifstream in(dir / "summary.json");
  std::stringstream text;
  text << in.rdbuf();
  return metrics::Json::parse(text.str());
}

TEST(RunResults, TheFirstWriteSaysTheRunIsIncompleteAndReplacesAnEarlierSummary) {
  test::TempDir dir;
  dir.write("summary.json", R"({"metric": {"train_au_mean_percentage": 99}})");  // an earlier run
  RunResults results(dir.path(), test::World());
  const build::BuildInfo& build = build::Info();
  EXPECT_EQ(
      ReadSummary(dir),
      (metrics::Json{
          {"run_status",
           {{"complete", false}, {"phase", "setup"}, {"exit_code", nullptr}, {"error", nullptr}}},
          {"dlbench",
           {{"version", build.version},
            {"git_commit", build.git_commit},
            {"compiler", build.compiler},
            {"build_type", build.build_type}}}}));
  EXPECT_FALSE(std::string(build.version).empty());
}

TEST(RunResults, EachPhaseIsRecordedAsItStartsAndAFailureKeepsItsCodeAndMessage) {
  test::TempDir dir;
  RunResults results(dir.path(), test::World());
  results.begin_phase("generate");
  results.add({{"generation", {{"files", 8}}}});
  results.begin_phase("train");
  EXPECT_EQ(ReadSummary(dir)["run_status"]["phase"], "train");
  EXPECT_EQ(ReadSummary(dir)["generation"]["files"], 8);  // what ended before survives
  results.fail(ExitCode::kIo, "cannot read data/train/img_1_of_8.npz: Input/output error");
  const metrics::Json status = ReadSummary(dir)["run_status"];
  EXPECT_EQ(status, (metrics::Json{
                        {"complete", false},
                        {"phase", "train"},
                        {"exit_code", 3},
                        {"error", "cannot read data/train/img_1_of_8.npz: Input/output error"}}));
}

TEST(RunResults, CompleteAtTheEnd) {
  test::TempDir dir;
  RunResults results(dir.path(), test::World());
  results.begin_phase("checkpoint");
  results.begin_phase(kFinishPhase);
  results.complete();
  EXPECT_EQ(
      ReadSummary(dir)["run_status"],
      (metrics::Json{{"complete", true}, {"phase", "done"}, {"exit_code", 0}, {"error", nullptr}}));
}

TEST(RunResults, AnInterruptionSaysTheSignalAndStaysWhateverComesAfter) {
  test::TempDir dir;
  RunResults results(dir.path(), test::World());
  results.begin_phase("train");
  results.interrupt(SIGINT);
  const metrics::Json interrupted = {{"complete", false},
                                     {"phase", "train"},
                                     {"exit_code", 130},
                                     {"error", "interrupted by SIGINT"},
                                     {"signal", "SIGINT"}};
  EXPECT_EQ(ReadSummary(dir)["run_status"], interrupted);
  // The phases' thread goes on until the signal ends the process: nothing it writes replaces
  // the interruption, not even a second signal.
  results.add({{"metric", {{"train_au_mean_percentage", 99}}}});
  results.begin_phase(kFinishPhase);
  results.fail(ExitCode::kIo, "a read cut short by the signal");
  results.interrupt(SIGTERM);
  results.complete();
  EXPECT_EQ(ReadSummary(dir)["run_status"], interrupted);
  EXPECT_FALSE(ReadSummary(dir).contains("metric"));
  EXPECT_EQ(SignalName(SIGTERM), "SIGTERM");
  EXPECT_EQ(SignalName(SIGHUP), "SIGHUP");
}

// mpirun carries out a rank's MPI_Abort by signalling the other ranks: the failure recorded
// before (by rank 0, or in the file by the rank that failed alone) is the cause and stays.
TEST(RunResults, ASignalAfterAFailureKeepsTheFailure) {
  test::TempDir dir;
  RunResults own(dir.path(), test::World());
  own.begin_phase("train");
  own.fail(ExitCode::kIo, "read error");
  own.interrupt(SIGTERM);
  EXPECT_EQ(ReadSummary(dir)["run_status"]["exit_code"], 3);

  test::TempDir other;
  RunResults results(other.path(), test::World());
  results.begin_phase("train");
  metrics::Json by_rank_1 = ReadSummary(other);
  by_rank_1["run_status"]["exit_code"] = 3;
  by_rank_1["run_status"]["error"] = "rank 1 of 2: read error";
  other.write("summary.json", by_rank_1.dump());
  results.interrupt(SIGTERM);
  EXPECT_EQ(ReadSummary(other)["run_status"], by_rank_1["run_status"]);
}

// A message with bytes that are not UTF-8 (a file name, bytes of a damaged file) is recorded, those
// bytes replaced: the JSON writer refused them, fail() swallowed that, and summary.json went on
// saying the run was in its phase with no error, as a killed run's does.
TEST(RunResults, AFailureMessageThatIsNotUtf8IsStillRecorded) {
  test::TempDir dir;
  RunResults results(dir.path(), test::World());
  results.begin_phase("train");
  results.fail(ExitCode::kIo, "read data/caf\xe9.npz: bad");
  const metrics::Json status = ReadSummary(dir)["run_status"];
  EXPECT_EQ(status["exit_code"], 3);
  EXPECT_EQ(status["error"], "read data/caf\xef\xbf\xbd.npz: bad");
}

TEST(RunResults, AFailureThatCannotBeWrittenDoesNotThrow) {
  test::TempDir dir;
  const std::filesystem::path folder = dir / "out";
  std::filesystem::create_directory(folder);
  RunResults results(folder, test::World());
  std::filesystem::remove_all(folder);  // the output folder is gone: the write fails
  EXPECT_NO_THROW(results.fail(ExitCode::kIo, "the error being reported"));
  EXPECT_FALSE(std::filesystem::exists(folder / "summary.json"));
}

}  // namespace
}  // namespace dlbench::workflow
