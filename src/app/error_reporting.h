// How failures reach the user: one message, one exit code, on any number of ranks.
#pragma once

#include <functional>

#include "mpi/communicator.h"
#include "util/error.h"

namespace dlbench::app {

// Thrown after a failure has already been printed, to carry its exit code up to main.
struct AlreadyReported {
  ExitCode code;
};

// Runs `body`, which returns an exit code. An error on this rank is printed by this rank and,
// when other ranks exist, ends the whole job through MPI_Abort with the error's exit code, so
// that ranks waiting for this one never hang.
int RunGuarded(const mpi::Communicator& comm, const std::function<int()>& body);

// Runs `step` on every rank of `comm`, for steps that every rank performs in lockstep (loading
// the configuration). If it fails anywhere, the lowest failing rank prints its message, and every
// rank throws AlreadyReported with that rank's exit code: one message, no abort.
void Collectively(const mpi::Communicator& comm, const std::function<void()>& step);

// Prints "dlbench: error: <message>" to stderr (with the rank when the job has several).
void PrintError(const mpi::Communicator& comm, const std::string& message);

}  // namespace dlbench::app
