// The training loop's step barrier (Communicator::step_barrier) must be a real barrier: no rank
// leaves it before the last rank has entered, whatever the spin-then-sleep polling does; and it
// returns the maximum of the ranks' values (the trainer's latest arrival).
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

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
    const double latest = comm.step_barrier(entered);
    const double left = MonotonicNow();
    const auto entries = comm.all_gather(entered);
    double last_entry = 0;
    for (double e : entries) last_entry = std::max(last_entry, e);
    EXPECT_GE(left, last_entry) << "round " << round << ": rank " << comm.rank()
                                << " left the barrier before rank " << late << " entered";
    EXPECT_EQ(latest, last_entry) << "round " << round;
  }
}

TEST(StepBarrier, WithZeroSpinStillSynchronises) {
  const mpi::Communicator comm = test::World();
  if (comm.rank() == 0) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  const double entered = MonotonicNow();
  EXPECT_EQ(comm.step_barrier(-1.0 * comm.rank(), 0.0), 0.0);
  const double left = MonotonicNow();
  const auto entries = comm.all_gather(entered);
  for (double e : entries) EXPECT_GE(left, e);
}

}  // namespace
}  // namespace dlbench
