// What the launcher (mpirun / mpiexec, or srun through PMI / PMIx) tells each process through its
// environment, read without initialising MPI. Commands that do no parallel work never start MPI
// (app/commands.h); they use this to know which process of a job speaks and how many ranks the
// job has.
#pragma once

namespace dlbench::mpi {

struct Launch {
  int rank = 0;  // this process's rank in the job; 0 when not started by a launcher
  int size = 1;  // processes in the job; 1 when not started by a launcher
};

// Reads OMPI_COMM_WORLD_RANK / _SIZE (Open MPI), PMIX_RANK (PMIx), PMI_RANK / PMI_SIZE (MPICH,
// Slurm's PMI-2). Values that are absent or not non-negative integers are ignored.
Launch LaunchFromEnvironment();

}  // namespace dlbench::mpi
