// A program that fails on one rank only, through dlbench's own error path, so the MPI test can
// check that such a failure ends the whole job quickly, once, with the error's exit code.
#include <cstdlib>
#include <thread>

#include "app/error_reporting.h"
#include "mpi/communicator.h"

int main(int argc, char** argv) {
  dlbench::mpi::Session session(&argc, &argv);
  const auto comm = session.world();
  const int failing_rank = argc > 1 ? std::atoi(argv[1]) : 1;
  return dlbench::app::RunGuarded(comm, [&] {
    if (comm.rank() == failing_rank) {
      throw dlbench::UsageError("probe failure raised on rank " + std::to_string(failing_rank));
    }
    // The other ranks wait where a real run would: in a collective the failed rank never joins.
    comm.barrier();
    return 0;
  });
}
