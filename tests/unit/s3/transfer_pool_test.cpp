#include "s3/transfer_pool.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <future>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace dlbench::s3 {
namespace {

TEST(TransferPool, ATaskResultOrExceptionReachesItsFuture) {
  TransferPool pool(2);
  EXPECT_EQ(pool.submit([] { return std::string("etag"); }).get(), "etag");
  std::future<int> failing = pool.submit([]() -> int { throw std::runtime_error("part 3"); });
  EXPECT_THROW(
      {
        try {
          failing.get();
        } catch (const std::runtime_error& e) {
          EXPECT_STREQ(e.what(), "part 3");
          throw;
        }
      },
      std::runtime_error);
  int ran = 0;
  pool.submit([&ran] { ++ran; }).get();
  EXPECT_EQ(ran, 1);
}

// A caller that waits for each task before the next (a writer with one part in flight) keeps
// one thread, and so one connection, for all of them.
TEST(TransferPool, TasksOneAfterAnotherRunOnOneThread) {
  TransferPool pool(8);
  std::set<std::thread::id> ids;
  for (int i = 0; i < 50; ++i)
    ids.insert(pool.submit([] { return std::this_thread::get_id(); }).get());
  EXPECT_EQ(ids.size(), 1U);
  EXPECT_EQ(pool.threads(), 1U);
  EXPECT_EQ(ids.count(std::this_thread::get_id()), 0U);
}

// Tasks submitted together run at once on threads of their own, up to the limit; the rest wait
// for a thread and run too.
TEST(TransferPool, RunsAtMostItsThreadsAtOnceAndQueuesTheRest) {
  TransferPool pool(3);
  std::mutex mutex;
  std::condition_variable changed;
  int running = 0;
  int most = 0;
  bool release = false;
  std::vector<std::future<void>> tasks;
  for (int i = 0; i < 7; ++i) {
    tasks.push_back(pool.submit([&] {
      std::unique_lock lock(mutex);
      most = std::max(most, ++running);
      changed.notify_all();
      changed.wait(lock, [&] { return release; });
      --running;
    }));
  }
  {
    std::unique_lock lock(mutex);
    changed.wait(lock, [&] { return running == 3; });
    release = true;
  }
  changed.notify_all();
  for (std::future<void>& task : tasks) task.get();
  EXPECT_EQ(most, 3);
  EXPECT_EQ(pool.threads(), 3U);
}

TEST(TransferPool, TheDestructorWaitsForQueuedTasks) {
  std::atomic<int> ran{0};
  {
    TransferPool pool(1);
    for (int i = 0; i < 5; ++i) pool.submit([&ran] { ++ran; });
  }
  EXPECT_EQ(ran.load(), 5);
}

}  // namespace
}  // namespace dlbench::s3
