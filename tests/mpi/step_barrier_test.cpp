// The training loop's step barrier (mpi::StepBarrier: a futex in a shared-memory segment when the
// ranks share the node, else Communicator::step_barrier) must be a real barrier: no rank
// leaves it before the last rank has entered, whatever the spin-then-sleep polling does; the last
// rank to enter must not wait for a sleeping rank's next poll; and the element-wise maximum the
// trainer's barrier split uses after the run (Communicator::max of a vector) is one reduction, as
// is the element-wise sum the trace's per-event totals use (Communicator::sum of a vector).
// The barrier between phases (Communicator::barrier) waits the same way, without taking a core.
#include "mpi/step_barrier.h"

#include <gtest/gtest.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <thread>
#include <vector>

#include "support/test_support.h"

namespace dlbench {
namespace {

double MonotonicNow() {  // CLOCK_MONOTONIC: one clock for every process on the node
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

TEST(StepBarrier, NoRankLeavesBeforeTheLastOneEnters) {
  const mpi::Communicator comm = test::World();
  for (int round = 0; round < 20; ++round) {
    // A different rank arrives late each round, by more than the spin phase.
    const int late = round % comm.size();
    if (comm.rank() == late) std::this_thread::sleep_for(std::chrono::milliseconds(3));
    const double entered = MonotonicNow();
    comm.step_barrier(/*spin_seconds=*/100e-6, /*poll_seconds=*/20e-6);
    const double left = MonotonicNow();
    const auto entries = comm.all_gather(entered);
    double last_entry = 0;
    for (double e : entries) last_entry = std::max(last_entry, e);
    EXPECT_GE(left, last_entry) << "round " << round << ": rank " << comm.rank()
                                << " left the barrier before rank " << late << " entered";
  }
}

TEST(StepBarrier, WithZeroSpinStillSynchronises) {
  const mpi::Communicator comm = test::World();
  if (comm.rank() == 0) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  const double entered = MonotonicNow();
  comm.step_barrier(/*spin_seconds=*/0, /*poll_seconds=*/20e-6);
  const double left = MonotonicNow();
  const auto entries = comm.all_gather(entered);
  for (double e : entries) EXPECT_GE(left, e);
}

// Rank 0 enters first and sleeps a whole second between polls; rank 1 enters 50 ms later. Rank 1
// must leave at once, long before rank 0's first poll: at computation 0 a rank arrives first at
// every other step, and a barrier that needed a second round from it (an all-reduce is a reduce
// to rank 0, then a broadcast) cost the last rank up to a poll interval per step. With more than
// two ranks even a barrier takes several rounds (rank 0's later sends wait for its poll).
TEST(StepBarrier, TheLastRankDoesNotWaitForASleepingRanksPoll) {
  const mpi::Communicator comm = test::World();
  if (comm.size() != 2) GTEST_SKIP() << "one-round barrier only at 2 ranks";
  if (comm.rank() == 1) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  const double entered = MonotonicNow();
  comm.step_barrier(/*spin_seconds=*/0, /*poll_seconds=*/comm.rank() == 0 ? 1.0 : 1e-3);
  const double left = MonotonicNow();
  const auto entries = comm.all_gather(entered);
  const auto exits = comm.all_gather(left);
  EXPECT_LT(exits[1], entries[0] + 0.5)
      << "the last rank left " << exits[1] - entries[1] << " s after entering";
  EXPECT_GE(exits[0], entries[1]);
}

double ThreadCpuSeconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// The barrier between phases (Communicator::barrier): the rank that arrives first waits 300 ms
// for the other, and must not burn its core meanwhile (MPI_Barrier's sched_yield polling used a
// whole core: ~0.3 s of CPU here), yet must not leave before the last rank enters.
TEST(PhaseBarrier, WaitsWithoutTakingACore) {
  const mpi::Communicator comm = test::World();
  if (comm.rank() != 0) std::this_thread::sleep_for(std::chrono::milliseconds(300));
  const double cpu_before = ThreadCpuSeconds();
  const double entered = MonotonicNow();
  comm.barrier();
  const double left = MonotonicNow();
  const double cpu = ThreadCpuSeconds() - cpu_before;
  const auto entries = comm.all_gather(entered);
  for (double e : entries) EXPECT_GE(left, e);
  if (comm.rank() == 0) {
    EXPECT_LT(cpu, 0.1) << "rank 0 used " << cpu << " s of CPU in the barrier";
  }
}

// Many rounds, each with a different late rank: sleeping (futex) and spinning waits, in both modes.
TEST(SharedMemoryStepBarrier, NoRankLeavesBeforeTheLastOneEnters) {
  const mpi::Communicator comm = test::World();
  for (const auto mode : {mpi::StepBarrier::Mode::kAuto, mpi::StepBarrier::Mode::kMpiPolls}) {
    mpi::StepBarrier barrier(comm, mode);
    for (int round = 0; round < 600; ++round) {
      const int late = round % comm.size();
      if (comm.rank() == late && round % 3 == 0) {
        std::this_thread::sleep_for(std::chrono::microseconds(300 + 100 * (round % 7)));
      }
      const double entered = MonotonicNow();
      barrier.wait(/*spin_seconds=*/round % 2 == 0 ? 0 : 50e-6, /*poll_seconds=*/20e-6);
      const double left = MonotonicNow();
      const auto entries = comm.all_gather(entered);
      for (const double e : entries) {
        ASSERT_GE(left, e) << "round " << round << ": rank " << comm.rank()
                           << " left before every rank entered (mode "
                           << (barrier.shared_memory() ? "shared memory" : "MPI polls") << ")";
      }
    }
  }
}

TEST(SharedMemoryStepBarrier, IsUsedWhenEveryRankSharesTheNode) {
  const mpi::Communicator comm = test::World();
  ASSERT_EQ(comm.ranks_on_this_node(), comm.size()) << "the MPI tests run on one node";
  EXPECT_TRUE(mpi::StepBarrier(comm).shared_memory());
  EXPECT_FALSE(mpi::StepBarrier(comm, mpi::StepBarrier::Mode::kMpiPolls).shared_memory());
}

// Rank 0 arrives first, and as a poll interval asks for a whole second; the others arrive 50 ms
// later. The sleeping rank must leave when the last one arrives, not at its next poll (which the
// MPI-poll barrier would wait for: at computation 0 that delay let the prefetch queues fill and
// a core idle), and must not spin meanwhile.
TEST(SharedMemoryStepBarrier, TheSleeperLeavesWhenTheLastRankArrives) {
  const mpi::Communicator comm = test::World();
  mpi::StepBarrier barrier(comm);
  if (comm.rank() != 0) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  const double cpu_before = ThreadCpuSeconds();
  const double entered = MonotonicNow();
  barrier.wait(/*spin_seconds=*/0, /*poll_seconds=*/1.0);
  const double left = MonotonicNow();
  const double cpu = ThreadCpuSeconds() - cpu_before;
  const auto entries = comm.all_gather(entered);
  const double last_entry = *std::max_element(entries.begin(), entries.end());
  EXPECT_GE(left, last_entry);
  EXPECT_LT(left, last_entry + 0.5) << "rank " << comm.rank() << " left " << left - last_entry
                                    << " s after the last rank entered";
  if (comm.rank() == 0) {
    EXPECT_LT(cpu, 0.03) << "rank 0 used " << cpu << " s of CPU waiting";
  }
}

TEST(StepBarrier, ElementWiseMaximumOverRanks) {
  const mpi::Communicator comm = test::World();
  const double r = comm.rank();
  const std::vector<double> mine{r, -r, r == 1 ? 10.0 : 0.0};
  const std::vector<double> all = comm.max(mine);
  EXPECT_EQ(all, (std::vector<double>{comm.size() - 1.0, 0.0, comm.size() > 1 ? 10.0 : 0.0}));
}

TEST(StepBarrier, ElementWiseSumOverRanks) {
  const mpi::Communicator comm = test::World();
  const double r = comm.rank();
  const double n = comm.size();
  const std::vector<double> all = comm.sum(std::vector<double>{1, r, r == 1 ? 0.5 : 0.0});
  EXPECT_EQ(all, (std::vector<double>{n, n * (n - 1) / 2, comm.size() > 1 ? 0.5 : 0.0}));
}

}  // namespace
}  // namespace dlbench
