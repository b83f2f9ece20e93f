// What a run does when SIGINT (Ctrl-C), SIGTERM (a scheduler's or mpirun's stop) or SIGHUP (the
// terminal closed) stops it: before, the process died at once and summary.json kept
// "exit_code": null, as for a killed job. While an Interruption is alive, such a signal makes a
// thread of its own record the interruption in summary.json (RunResults::interrupt: exit code
// 128 + signal, the signal's name) and in the run's log and on the terminal (one error line),
// then end the process by the same signal (its default action), so that the shell and mpirun
// see what they would have seen without dlbench's handler (exit status 130, 143, 129). Under
// Open MPI's mpirun the ranks never see a Ctrl-C: mpirun stops them all with SIGTERM when it gets
// SIGINT or SIGTERM, then exits 1 whatever their status; a SIGTERM sent by the rank's parent
// under mpirun is recorded as such (run_status "sent_by": "mpirun") and the error line says so,
// and that mpirun exits 1. The other
// ranks, which record nothing, give rank 0 up to 5 s before they end (mpirun ends the job when
// one rank dies). A second
// signal while that is recorded ends the process at once. Files already written stay as they
// are: every result file is written through a rename, and a data or checkpoint file cut short is
// a temporary name that a rerun removes.
//
// A signal that was ignored when the Interruption was made (nohup, a shell's background job
// ignoring SIGINT) stays ignored. One Interruption at a time per process; it must outlive
// nothing and be outlived by the RunResults it records into (and the run's log).
#pragma once

#include <thread>

#include "workflow/run_results.h"

namespace dlbench::workflow {

class Interruption {
 public:
  // `speaks`: this process prints the error line and logs it (rank 0).
  Interruption(RunResults& results, bool speaks);
  // Restores the signal dispositions it replaced and stops its thread.
  ~Interruption();
  Interruption(const Interruption&) = delete;
  Interruption& operator=(const Interruption&) = delete;

 private:
  void watch();

  RunResults& results_;
  bool speaks_;
  std::thread watcher_;
};

}  // namespace dlbench::workflow
