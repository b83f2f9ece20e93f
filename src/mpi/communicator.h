// A thin communicator over MPI_COMM_WORLD (or a split of it). It hides MPI's types so that the
// rest of dlbench never includes <mpi.h>, and it works identically under `mpirun` and in a
// singleton process started without it. Communicator::Local() is the same interface for a process
// that never initialises MPI (commands that do no parallel work, app/commands.h).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "util/error.h"

namespace dlbench::mpi {

class Communicator {
 public:
  // This process alone, without MPI: rank 0 of 1. Barriers return at once, reductions and
  // gathers return the process's own value, abort() exits; nothing calls into MPI, so it works
  // whether or not MPI was ever initialised. fortran_handle() throws Error(kInternal).
  static Communicator Local() { return Communicator(); }

  int rank() const { return rank_; }
  int size() const { return size_; }
  bool is_root() const { return rank_ == 0; }

  // A barrier between phases (after generation, a checkpoint save, staging). The rank that
  // arrives first must not take a core from a rank still writing: MPI_Barrier under
  // oversubscription polls with sched_yield, a full core while a rank of the same node works (a
  // 2-rank generate measured it). So it is step_barrier with a short spin and sleeping polls of
  // kBarrierPoll: at most that much later than MPI_Barrier once the last rank arrives. While it
  // waits, the polls cost the rank 3-4 % of a core (mpi::StepBarrier's futex: 0.02 %), which
  // barriers as rare as these (a few per phase or save) can afford: the futex needs a segment set
  // up collectively that outlives every use, which this copyable value (and Local()) cannot own.
  static constexpr double kBarrierSpin = 50e-6;
  static constexpr double kBarrierPoll = 100e-6;
  void barrier() const;
  // The training step loop's barrier across nodes (mpi::StepBarrier uses shared memory when every
  // rank is on one node): spins on MPI_Test for `spin_seconds`, then polls every
  // `poll_seconds` while sleeping (pipeline::BarrierWait chooses them). MPI_Barrier under
  // oversubscription polls with sched_yield, which hands the core to the rank's reader threads
  // for whole timeslices (milliseconds per step); this wait costs at most a poll interval once
  // the last rank arrives.
  // A plain MPI_Ibarrier, one round at 2 ranks: the last rank to arrive leaves at once. A
  // non-blocking all-reduce (e.g. of arrival times) is two rounds in Open MPI (reduce to rank 0,
  // then broadcast), so the last rank would wait for a sleeping rank 0's next poll: up to
  // `poll_seconds` per step (metrics::ReduceBarrierSkew learns the arrivals after the run).
  void step_barrier(double spin_seconds, double poll_seconds) const;

  double max(double value) const;
  double min(double value) const;
  double sum(double value) const;
  std::uint64_t max(std::uint64_t value) const;
  std::uint64_t min(std::uint64_t value) const;
  std::uint64_t sum(std::uint64_t value) const;
  int max(int value) const;
  int min(int value) const;
  int sum(int value) const;
  // The element-wise maximum / sum over ranks, in one reduction. Every rank passes the same
  // length.
  std::vector<double> max(const std::vector<double>& values) const;
  std::vector<double> sum(const std::vector<double>& values) const;

  // Every rank's value, in rank order, on every rank.
  std::vector<double> all_gather(double value) const;
  std::vector<std::uint64_t> all_gather(std::uint64_t value) const;
  std::vector<std::string> all_gather(const std::string& value) const;

  // Rank `root`'s string on every rank.
  std::string broadcast(const std::string& value, int root = 0) const;
  // Every rank's string, in rank order, on rank `root` (empty elsewhere). Throws Error(kInternal)
  // on every rank when the strings total 2 GiB or more.
  std::vector<std::string> gather(const std::string& value, int root = 0) const;
  // The same strings, handed to `take(rank, bytes)` on rank `root` one at a time in rank order,
  // each received only when the previous one was taken: the root holds one rank's string at a
  // time, not every rank's (the run's end reduces the counters so). Throws Error(kInternal) on
  // every rank when one string is 2 GiB or more.
  void gather_each(const std::string& value,
                   const std::function<void(int rank, std::string_view bytes)>& take,
                   int root = 0) const;

  // Number of ranks sharing this rank's node.
  int ranks_on_this_node() const;
  // The lowest rank of this communicator on this rank's node (shared-memory split).
  int lowest_rank_on_this_node() const;

  // Ends every rank of the job with `code`. Never returns.
  [[noreturn]] void abort(ExitCode code) const;

  // The raw MPI_Comm as its Fortran handle, for the few modules that call MPI-IO or parallel
  // HDF5 themselves (storage/, formats/). Convert back with MPI_Comm_f2c.
  int fortran_handle() const;

  // False for Local(): no MPI behind it.
  bool uses_mpi() const { return uses_mpi_; }

 private:
  friend class Session;
  Communicator() = default;
  Communicator(int fortran_handle, int rank, int size)
      : handle_(fortran_handle), rank_(rank), size_(size), uses_mpi_(true) {}

  int handle_ = 0;
  int rank_ = 0;
  int size_ = 1;
  bool uses_mpi_ = false;
};

// Owns MPI initialisation for the process: MPI_Init_thread on construction (a singleton when the
// process was not started by mpirun), MPI_Finalize on destruction. Create exactly one, in main.
class Session {
 public:
  Session(int* argc, char*** argv);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  Communicator world() const;

  // True once MPI_Init has run in this process, even if MPI was finalised since (MPI_Initialized
  // may be called at any time, without initialising anything).
  static bool Started();
};

}  // namespace dlbench::mpi
