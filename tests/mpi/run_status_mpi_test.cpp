// summary.json's run_status when a rank other than 0 fails alone (workflow/run_results.h): rank 0
// never hears of the error (the job ends through MPI_Abort), so the failing rank records it in
// rank 0's summary itself (run with mpiexec -n 2 and -n 3).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "support/shared_temp_dir.h"
#include "workflow/run_results.h"

namespace dlbench::workflow {
namespace {

metrics::Json ReadStatus(const test::SharedTempDir& dir) {
  std::ifstream in(dir / "summary.json");
  std::stringstream text;
  text << in.rdbuf();
  return metrics::Json::parse(text.str())[kRunStatusKey];
}

TEST(RunStatusMpi, AFailureOfTheLastRankAloneIsRecordedWithItsRankAndPhase) {
  const mpi::Communicator world = test::World();
  ASSERT_GE(world.size(), 2) << "run with mpiexec -n 2 or more";
  const test::SharedTempDir dir(world);
  RunResults results(dir.path(), world);
  results.add({{"generation", {{"files", 8}}}});
  results.begin_phase("train");
  world.barrier();
  const int last = world.size() - 1;
  if (world.rank() == last) results.fail(ExitCode::kIo, "cannot read img_3_of_8.npz: injected");
  world.barrier();
  const metrics::Json status = ReadStatus(dir);
  EXPECT_EQ(status, (metrics::Json{{"complete", false},
                                   {"phase", "train"},
                                   {"exit_code", 3},
                                   {"error", "rank " + std::to_string(last) + " of " +
                                                 std::to_string(world.size()) +
                                                 ": cannot read img_3_of_8.npz: injected"}}));
  // What rank 0 wrote before stays.
  std::ifstream in(dir / "summary.json");
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(metrics::Json::parse(text.str())["generation"]["files"], 8);
  EXPECT_FALSE(std::filesystem::exists(dir / ("summary.rank-" + std::to_string(last) + ".json")));
  world.barrier();
}

TEST(RunStatusMpi, TheFirstRecordedFailureStaysAndACollectiveOneIsRankZerosToRecord) {
  const mpi::Communicator world = test::World();
  const test::SharedTempDir dir(world);
  RunResults results(dir.path(), world);
  results.begin_phase("checkpoint");
  world.barrier();
  // Every rank throws a collective error together: only rank 0 writes it.
  if (!world.is_root()) results.fail(ExitCode::kUsage, "agreed on every rank", /*collective=*/true);
  world.barrier();
  EXPECT_TRUE(ReadStatus(dir)["error"].is_null());
  world.barrier();
  if (world.rank() == 1) results.fail(ExitCode::kIo, "the first failure");
  world.barrier();
  if (world.rank() == 1) results.fail(ExitCode::kInternal, "a later one");
  world.barrier();
  const metrics::Json status = ReadStatus(dir);
  EXPECT_EQ(status["exit_code"], 3);
  EXPECT_EQ(status["error"], "rank 1 of " + std::to_string(world.size()) + ": the first failure");
  world.barrier();
}

}  // namespace
}  // namespace dlbench::workflow
