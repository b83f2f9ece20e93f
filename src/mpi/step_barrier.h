// The training loop's per-step barrier (train.step_barrier) for a job whose ranks all share one
// node: a counter and a generation number in a shared-memory segment of the node, and a futex on
// the generation. The last rank to arrive bumps the generation and wakes the sleepers at once;
// the others sleep in the kernel until then, so the wait takes no CPU from the reader threads and
// ends the moment the last rank arrives. Communicator::step_barrier instead sleeps between MPI
// polls: at computation 0 with 2 ranks on 2 cores its 200 µs polls made the trainer of the rank
// that arrived first leave up to a poll late, its readers filled the prefetch queue and blocked,
// and a core idled (results/read.md).
//
// Ranks on several nodes (or a node where the segment cannot be made) use
// Communicator::step_barrier, unchanged. Construction is collective over `comm`; destruction is
// not (it only unmaps), so a rank that fails mid-run can unwind past it. It holds a copy of the
// communicator's handle: MPI must stay initialised while it is used.
#pragma once

#include "mpi/communicator.h"

namespace dlbench::mpi {

struct StepBarrierWords;  // the shared segment's layout (step_barrier.cpp)

class StepBarrier {
 public:
  enum class Mode {
    kAuto,      // the shared-memory barrier when every rank is on this node, else MPI polls
    kMpiPolls,  // always Communicator::step_barrier (tests of the fallback)
  };
  explicit StepBarrier(const Communicator& comm, Mode mode = Mode::kAuto);
  ~StepBarrier();
  StepBarrier(const StepBarrier&) = delete;
  StepBarrier& operator=(const StepBarrier&) = delete;

  // Returns once every rank of the communicator has called it as often as this rank. Spins for
  // `spin_seconds` first (pipeline::BarrierWait decides when a spin pays); `poll_seconds` is the
  // interval of the MPI polls when the shared-memory barrier is not in use.
  void wait(double spin_seconds, double poll_seconds);

  // Whether the shared-memory barrier is in use (else MPI polls).
  bool shared_memory() const { return shared_ != nullptr; }

 private:
  Communicator comm_;
  StepBarrierWords* shared_ = nullptr;  // the node's segment, mapped here; null: MPI polls
  int ranks_ = 1;                       // ranks that meet at the barrier (all on this node)
};

}  // namespace dlbench::mpi
