// The run's reader threads (pipeline::ReaderThreads) run one pass at a time on threads that
// persist from pass to pass, as DLIO's persistent loader workers do.
#include "pipeline/reader_threads.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "support/expect_error.h"
#include "support/watchdog.h"
#include "util/error.h"

namespace dlbench::pipeline {
namespace {

using namespace std::chrono_literals;
using dlbench::test::Watchdog;

TEST(ReaderThreads, EveryPassRunsOnceOnEachOfItsThreadsAndTheThreadsPersist) {
  Watchdog watchdog(60s);
  ReaderThreads threads(3);
  EXPECT_EQ(threads.size(), 3u);
  std::mutex mutex;
  std::set<pid_t> ids;  // kernel thread ids: std::thread::id may be reused after a join
  for (int pass = 0; pass < 50; ++pass) {
    const std::size_t count = pass % 3 == 0 ? 2 : 3;  // some passes use fewer threads
    std::vector<std::atomic<int>> runs(3);
    threads.start(count, [&](std::size_t index) {
      if (pass % 5 == 0) std::this_thread::sleep_for(1ms);  // wait() really waits
      ++runs[index];
      std::lock_guard lock(mutex);
      ids.insert(gettid());
    });
    threads.wait();
    for (std::size_t i = 0; i < 3; ++i) {
      ASSERT_EQ(runs[i].load(), i < count ? 1 : 0) << "pass " << pass << ", thread " << i;
    }
    threads.wait();  // idempotent
  }
  EXPECT_EQ(ids.size(), 3u) << "the passes ran on threads other than the three started";
  EXPECT_EQ(ids.count(gettid()), 0u);
}

TEST(ReaderThreads, APassStartedWhileOneRunsIsAnInternalError) {
  Watchdog watchdog(60s);
  ReaderThreads threads(1);
  std::atomic<bool> release{false};
  threads.start(1, [&](std::size_t) {
    while (!release) std::this_thread::sleep_for(100us);
  });
  dlbench::test::ExpectError([&] { threads.start(1, [](std::size_t) {}); }, ExitCode::kInternal,
                             {"still busy"});
  dlbench::test::ExpectError([&] { ReaderThreads(1).start(2, [](std::size_t) {}); },
                             ExitCode::kInternal, {"of 1"});
  release = true;
  threads.wait();
}

TEST(ReaderThreads, DestructionWaitsForThePassThenEndsTheThreads) {
  Watchdog watchdog(60s);
  std::atomic<int> finished{0};
  {
    ReaderThreads threads(2);
    threads.start(2, [&](std::size_t) {
      std::this_thread::sleep_for(5ms);
      ++finished;
    });
  }
  EXPECT_EQ(finished.load(), 2);
}

}  // namespace
}  // namespace dlbench::pipeline
