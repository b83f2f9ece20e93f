#include "pipeline/thread_policy.h"

#include <gtest/gtest.h>
#include <sched.h>

#include <thread>

namespace dlbench::pipeline {
namespace {

// Runs `body` on a fresh thread (so the test runner's own policy is never changed) and returns
// the thread's policy afterwards.
template <typename Body>
int PolicyAfter(Body body) {
  int policy = -1;
  std::thread thread([&] {
    body();
    policy = sched_getscheduler(0);
  });
  thread.join();
  return policy;
}

TEST(ThreadPolicy, BatchMovesANormalThreadToSchedBatch) {
  if (sched_getscheduler(0) != SCHED_OTHER) GTEST_SKIP() << "test runner is not SCHED_OTHER";
  EXPECT_EQ(PolicyAfter([] { EXPECT_EQ(ApplyThreadPolicy(config::ThreadPolicy::kBatch), ""); }),
            SCHED_BATCH);
  EXPECT_EQ(sched_getscheduler(0), SCHED_OTHER);  // only the calling thread changed
}

TEST(ThreadPolicy, NormalChangesNothing) {
  if (sched_getscheduler(0) != SCHED_OTHER) GTEST_SKIP() << "test runner is not SCHED_OTHER";
  EXPECT_EQ(PolicyAfter([] { EXPECT_EQ(ApplyThreadPolicy(config::ThreadPolicy::kNormal), ""); }),
            SCHED_OTHER);
}

TEST(ThreadPolicy, APolicyTheUserChoseIsLeftAlone) {
  // As after `chrt --idle`: SCHED_IDLE needs no privilege to enter.
  EXPECT_EQ(PolicyAfter([] {
              const sched_param zero{};
              ASSERT_EQ(sched_setscheduler(0, SCHED_IDLE, &zero), 0);
              EXPECT_EQ(ApplyThreadPolicy(config::ThreadPolicy::kBatch), "");
            }),
            SCHED_IDLE);
}

}  // namespace
}  // namespace dlbench::pipeline
