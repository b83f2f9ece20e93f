// How failures reach the user: one message, one exit code, on any number of ranks.
#pragma once

#include <functional>
#include <string>

#include "mpi/communicator.h"
#include "util/error.h"

namespace dlbench::app {

// Runs `body`, which returns an exit code. A collective error (thrown by every rank together,
// mpi/agreement.h) is printed by rank 0 and every rank returns its code. Any other error is
// printed by the rank that hit it and, when other ranks exist, ends the whole job through
// MPI_Abort with the error's exit code, so that ranks waiting for this one never hang. Warnings
// raised on any rank (util/sink.h RaiseWarning) are printed once for the job before returning
// (before the error, when there is one).
int RunGuarded(const mpi::Communicator& comm, const std::function<int()>& body);

// Prints "dlbench: error: <message>" through the sink (sink::Error), naming this rank as the
// source when the job has several: "dlbench: error (rank 1 of 4): <message>".
void PrintError(const mpi::Communicator& comm, const std::string& message);

}  // namespace dlbench::app
