// Warnings raised on several ranks are printed once for the job, by rank 0 (mpi/agreement.h
// PublishWarnings), into a capturing sink (run with mpiexec -n 2 and -n 3).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "mpi/agreement.h"
#include "support/test_support.h"
#include "util/sink.h"

namespace dlbench::mpi {
namespace {

TEST(MpiWarnings, AWarningRaisedOnEveryRankIsPrintedOnceByRankZero) {
  const Communicator world = test::World();
  ASSERT_GE(world.size(), 2) << "run with mpiexec -n 2 or more";
  sink::CapturingSink capture;
  const sink::ScopedSink scope(capture);
  sink::RaiseWarning("the same condition on every rank");
  PublishWarnings(world);
  if (world.is_root()) {
    EXPECT_EQ(capture.messages(),
              std::vector<std::string>{"dlbench: warning: the same condition on every rank"});
  } else {
    EXPECT_TRUE(capture.messages().empty());
  }
}

TEST(MpiWarnings, WarningsOfOtherRanksReachRankZeroInRankOrder) {
  const Communicator world = test::World();
  sink::CapturingSink capture;
  const sink::ScopedSink scope(capture);
  if (world.rank() > 0) sink::RaiseWarning("raised on rank " + std::to_string(world.rank()));
  if (world.rank() == world.size() - 1) sink::RaiseWarning("shared by rank 1 and the last");
  if (world.rank() == 1) sink::RaiseWarning("shared by rank 1 and the last");
  PublishWarnings(world);
  if (!world.is_root()) {
    EXPECT_TRUE(capture.messages().empty());
    return;
  }
  std::vector<std::string> expected;
  for (int r = 1; r < world.size(); ++r) {
    expected.push_back("dlbench: warning: raised on rank " + std::to_string(r));
    if (r == 1) expected.push_back("dlbench: warning: shared by rank 1 and the last");
  }
  EXPECT_EQ(capture.messages(), expected);
}

TEST(MpiWarnings, NothingRaisedPrintsNothing) {
  const Communicator world = test::World();
  sink::CapturingSink capture;
  const sink::ScopedSink scope(capture);
  PublishWarnings(world);
  PublishWarnings(world);
  EXPECT_TRUE(capture.messages().empty());
}

}  // namespace
}  // namespace dlbench::mpi
