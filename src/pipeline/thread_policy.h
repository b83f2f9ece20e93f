// Scheduling policy of the reader threads (reader.thread_policy).
//
// The trainer thread emulates the accelerator: its compute is a timed wait and its step ends on a
// barrier. Reader threads wake up the moment the trainer releases a batch slot; under the normal
// policy the scheduler lets a waking thread preempt the running one, so on a busy CPU the
// trainer lost ~90 µs per step to its own readers before it started the next compute: 0.5 % of
// AU at 20 ms steps, and 0.8 points once the step barrier made every rank wait for the most
// delayed one (results/read.md). SCHED_BATCH threads get the same CPU share
// but never preempt on wake-up, so reads still overlap compute and the accelerator is not
// delayed by the machinery that emulates it.
#pragma once

#include <string>

#include "config/enums.h"

namespace dlbench::pipeline {

// Applies `policy` to the calling thread. kBatch moves a SCHED_OTHER thread to SCHED_BATCH and
// leaves any other policy alone (the user chose it, e.g. with chrt); kNormal changes nothing.
// Returns an empty string, or why the policy could not be applied.
std::string ApplyThreadPolicy(config::ThreadPolicy policy);

// ApplyThreadPolicy, raising its failure as a warning (util/sink.h RaiseWarning: printed once for
// the job, however many threads and ranks meet it): the run goes on, with reader wake-ups able to
// delay the emulated accelerator.
void ApplyThreadPolicyOrWarn(config::ThreadPolicy policy);

// Cores this process may run on (its CPU affinity; at least 1).
int CoresAvailable();
// Whether a node running `ranks_on_node` ranks of `read_threads` reader threads each has a core
// for every reader and trainer thread on `cores` (TrainerOptions::spare_core).
bool SpareCoreForTrainer(int ranks_on_node, int read_threads, int cores = CoresAvailable());

}  // namespace dlbench::pipeline
