// Failing and warning together. Some steps run on every rank in lockstep (loading the
// configuration, checking the dataset); if one rank fails there, the others must not go on into a
// collective the failed rank will never join. Warnings raised on any rank (util/sink.h
// RaiseWarning) are likewise gathered and printed once for the job.
#pragma once

#include <functional>

#include "mpi/communicator.h"

namespace dlbench::mpi {

// Runs `step` on every rank of `comm`. If it throws dlbench::Error (or any std::exception) on
// any rank, every rank throws the same Error — the message and exit code of the lowest failing
// rank — marked collective, so that it is printed once and no rank aborts the others.
void AgreeOnFailure(const Communicator& comm, const std::function<void()>& step);

// Collective: takes every rank's pending warnings (sink::TakeRaisedWarnings) and has rank 0 print
// each distinct text once through the sink, in rank order, then in the order raised. Call it at
// points every rank reaches together (the end of a phase, the end of a command).
void PublishWarnings(const Communicator& comm);

}  // namespace dlbench::mpi
