// Failing together. Some steps run on every rank in lockstep (loading the configuration,
// checking the dataset); if one rank fails there, the others must not go on into a collective
// the failed rank will never join.
#pragma once

#include <functional>

#include "mpi/communicator.h"

namespace dlbench::mpi {

// Runs `step` on every rank of `comm`. If it throws dlbench::Error (or any std::exception) on
// any rank, every rank throws the same Error — the message and exit code of the lowest failing
// rank — marked collective, so that it is printed once and no rank aborts the others.
void AgreeOnFailure(const Communicator& comm, const std::function<void()>& step);

}  // namespace dlbench::mpi
