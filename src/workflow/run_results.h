// summary.json of a run. Each phase adds its part when it ends and the file is rewritten at once,
// so the results of a finished phase survive a failure in a later one. Every write, from the
// first (made by the constructor), holds `run_status`, which says whether the summary is of a
// whole run (docs/reliability.md, Incomplete runs):
//   {"complete": false, "phase": P, "exit_code": null, "error": null} while phase P runs (what a
//       killed job leaves),
//   {"complete": false, "phase": P, "exit_code": C, "error": "..."} after a failure in P (the
//       error prefixed "rank R of N: " when a rank other than 0 failed alone),
//   {"complete": false, "phase": P, "exit_code": 128 + S, "error": "interrupted by SIGTERM",
//       "signal": "SIGTERM"} after the signal S that stopped the run (interruption.h),
//   {"complete": true, "phase": "done", "exit_code": 0, "error": null} at the end.
// and, next to it from the first write, `dlbench`: the version, git commit, compiler and build
// type of the dlbench that wrote it (util/build_info.h).
#pragma once

#include <filesystem>
#include <mutex>
#include <string>

#include "metrics/json_fields.h"
#include "mpi/communicator.h"
#include "util/error.h"

namespace dlbench::workflow {

inline constexpr const char* kRunStatusKey = "run_status";
inline constexpr const char* kBuildKey = "dlbench";
inline constexpr const char* kSetupPhase = "setup";    // before the first phase: claims, tiers
inline constexpr const char* kFinishPhase = "finish";  // after the last: counters, trace
inline constexpr const char* kDonePhase = "done";      // the run completed

class RunResults {
 public:
  // Rank 0 writes <folder>/summary.json at once, holding only run_status (incomplete, in phase
  // kSetupPhase): a summary left by an earlier run into the folder is replaced before anything
  // else can fail.
  RunResults(std::filesystem::path folder, const mpi::Communicator& comm);

  // Merges `part` into the summary (objects are merged key by key, recursively; other values
  // replace) and rewrites <folder>/summary.json atomically. Only rank 0's call has an effect.
  void add(const metrics::Json& part);

  // run_status: phase `phase` runs (the summary is rewritten).
  void begin_phase(const std::string& phase);
  // run_status: the run ended with `code` and `message` in the phase that was running. Never
  // throws (it is called while an error propagates): a summary that cannot be written keeps
  // what it said before. On rank 0 it rewrites the summary. On another rank, a `collective`
  // error is rank 0's to record (every rank has it); any other error is this rank's alone and
  // rank 0 will not hear of it (the job ends through MPI_Abort, app/error_reporting.h), so this
  // rank records it itself: it reads summary.json back, adds its code, phase and message
  // ("rank R of N: ...") unless a failure is already recorded there, and renames the result
  // into place through a name of its own. Rank 0 writes the summary only between phases, and
  // is meanwhile waiting for this rank, so the two do not write at once in practice; if they
  // did, the rename of one replaces the other's whole file, never a mix.
  void fail(ExitCode code, const std::string& message, bool collective = false) noexcept;
  // run_status: the run completed.
  void complete();
  // run_status: the run was stopped by signal `signal_number` in the phase that was running
  // (exit code 128 + signal_number, the shell's convention, and the signal's name), unless a
  // failure is recorded already (by this rank, or in the file by a rank that failed alone and
  // ended the job through MPI_Abort, which mpirun does by signalling the others). Rank 0
  // only: the signal reaches every rank of an mpirun job, and a rank signalled alone makes
  // mpirun stop the others. Called from another thread than the one running the phases
  // (interruption.h) and never throws; afterwards every other call here writes nothing, so
  // that the status stays the interruption's while the process ends.
  // `sent_by` names the signal's sender when known ("mpirun"), recorded as run_status.sent_by.
  void interrupt(int signal_number, const std::string& sent_by = "") noexcept;

  // Not to be used while another thread may call interrupt().
  const metrics::Json& summary() const { return summary_; }
  // A copy of the summary, safe while interrupt() may be called.
  metrics::Json snapshot() const {
    const std::lock_guard lock(mutex_);
    return summary_;
  }
  const std::filesystem::path& folder() const { return folder_; }

 private:
  void write() const;
  void record_failure_of_this_rank(ExitCode code, const std::string& message) const;

  // Guards summary_ and the writes: interrupt() comes from another thread.
  mutable std::mutex mutex_;
  bool interrupted_ = false;
  std::filesystem::path folder_;
  bool writer_;
  int rank_;
  int ranks_;
  metrics::Json summary_ = metrics::Json::object();
};

// "SIGINT", "SIGTERM", "SIGHUP", else "signal N".
std::string SignalName(int signal_number);

// Writes `text` to `path` through a temporary file and a rename (rank-local; no collective), with
// storage::AtomicFileWriter on PosixEnv: result files are not the workload's I/O, so no tier
// throttles them and no counter sees them.
void WriteFileAtomically(const std::filesystem::path& path, const std::string& text);

}  // namespace dlbench::workflow
