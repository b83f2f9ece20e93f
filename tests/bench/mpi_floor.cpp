// The MPI floor of a parallel dlbench run, for scripts/bench/bench-read.sh: the emptiest MPI
// program (launch, MPI_Init, one barrier, MPI_Finalize). Rank 0 prints the wall-clock time (seconds
// since the epoch) right after the barrier, when every rank has finished MPI_Init: the script
// subtracts the time it launched mpirun, and compares it with the start of a dlbench run's first
// step.
#include <mpi.h>

#include <chrono>
#include <cstdio>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Barrier(MPI_COMM_WORLD);
  const double now =
      std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) std::printf("%.6f\n", now);
  MPI_Finalize();
  return 0;
}
