#include "util/thread_priority.h"

#include <gtest/gtest.h>
#include <sched.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <thread>

namespace dlbench {
namespace {

int OwnNice() {
  errno = 0;
  return ::getpriority(PRIO_PROCESS, static_cast<id_t>(::gettid()));
}

// Each case lowers a thread of its own: the test's main thread keeps its priority.
TEST(ThreadPriority, LowestIsNice19OfTheCallingThreadOnly) {
  const int before = OwnNice();
  int nice = 0;
  bool lowered = false;
  std::thread([&] {
    lowered = LowerThisThread(ThreadPriority::kLowest);
    nice = OwnNice();
  }).join();
  EXPECT_TRUE(lowered);
  EXPECT_EQ(nice, 19);
  EXPECT_EQ(OwnNice(), before);
}

TEST(ThreadPriority, LowIsNice10OfTheCallingThreadOnly) {
  const int before = OwnNice();
  int nice = 0;
  int policy = -1;
  bool lowered = false;
  std::thread([&] {
    lowered = LowerThisThread(ThreadPriority::kLow);
    nice = OwnNice();
    policy = ::sched_getscheduler(0);
  }).join();
  EXPECT_TRUE(lowered);
  EXPECT_EQ(nice, std::max(before, 10));  // a test run under `nice -n 15` stays at 15
  EXPECT_EQ(policy, SCHED_OTHER);
  EXPECT_EQ(OwnNice(), before);
}

TEST(ThreadPriority, IdleIsSchedIdleOfTheCallingThreadOnly) {
  const int before = ::sched_getscheduler(0);
  int policy = -1;
  bool lowered = false;
  std::thread([&] {
    lowered = LowerThisThread(ThreadPriority::kIdle);
    policy = ::sched_getscheduler(0);
  }).join();
  EXPECT_TRUE(lowered);
  EXPECT_EQ(policy, SCHED_IDLE);
  EXPECT_EQ(::sched_getscheduler(0), before);
}

}  // namespace
}  // namespace dlbench
