// A program that fails on one rank only, through dlbench's own error path, so the MPI test can
// check that such a failure ends the whole job quickly, once, with the error's exit code. With
// the argument `warn`, every rank raises the same warning instead and the job succeeds: the
// warning must be printed once.
#include <cstdlib>
#include <string>
#include <thread>

#include "app/error_reporting.h"
#include "mpi/communicator.h"
#include "util/sink.h"

int main(int argc, char** argv) {
  dlbench::mpi::Session session(&argc, &argv);
  const auto comm = session.world();
  if (argc > 1 && std::string(argv[1]) == "warn") {
    return dlbench::app::RunGuarded(comm, [&] {
      dlbench::sink::RaiseWarning("probe warning raised on every rank");
      return 0;
    });
  }
  // The rank that fails, or -1 for every rank at once.
  const int failing_rank = argc > 1 ? std::atoi(argv[1]) : 1;
  return dlbench::app::RunGuarded(comm, [&] {
    if (comm.rank() == failing_rank || failing_rank < 0) {
      throw dlbench::Error(dlbench::ExitCode::kIo,
                           "probe failure raised on rank " + std::to_string(comm.rank()));
    }
    // The other ranks wait where a real run would: in a collective the failed rank never joins.
    comm.barrier();
    return 0;
  });
}
