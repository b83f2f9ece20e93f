// A shared-file generation that fails on purpose (storage::FaultInjectionEnv), so that the CLI
// tests can check that a fault in an MPI-IO or a parallel-HDF5 shared write ends the whole job
// with exit 3, names the path and the operation, and leaves nothing incomplete under a final name.
//   shared_fault_probe <folder> <format> <write|close|open> <nth> <failing rank, -1: every rank>
// One file of 37 samples of 1 KiB, written through a 4 KiB buffer (several collective writes).
#include <cstdlib>
#include <string>

#include "app/error_reporting.h"
#include "config/config.h"
#include "config/enums.h"
#include "generation/generation.h"
#include "mpi/communicator.h"
#include "storage/fault_injection_env.h"

namespace {

dlbench::storage::FaultOp ParseOp(const std::string& op) {
  using dlbench::storage::FaultOp;
  if (op == "write") return FaultOp::kWrite;
  if (op == "close") return FaultOp::kClose;
  if (op == "open") return FaultOp::kOpenWrite;
  throw dlbench::UsageError("unknown fault operation " + op);
}

}  // namespace

int main(int argc, char** argv) {
  dlbench::mpi::Session session(&argc, &argv);
  const auto comm = session.world();
  return dlbench::app::RunGuarded(comm, [&] {
    if (argc != 6) throw dlbench::UsageError("usage: shared_fault_probe FOLDER FORMAT OP NTH RANK");
    dlbench::config::Config config;
    config.dataset.data_folder = std::string(argv[1]) + "/data";
    const auto format = dlbench::config::FromString<dlbench::config::Format>(argv[2]);
    if (!format) throw dlbench::UsageError(std::string("unknown format ") + argv[2]);
    config.dataset.format = *format;
    config.dataset.num_files_train = 1;
    config.dataset.num_files_eval = 0;
    config.dataset.num_samples_per_file = 37;
    config.dataset.record_length_bytes = 1024;
    config.dataset.generation_buffer_size = 4096;
    dlbench::storage::FaultInjectionEnv env(dlbench::storage::PosixEnv());
    const int failing_rank = std::atoi(argv[5]);
    if (failing_rank < 0 || failing_rank == comm.rank()) {
      env.inject(dlbench::storage::Fault(ParseOp(argv[3]))
                     .nth(std::strtoull(argv[4], nullptr, 10))
                     .on_paths_containing("img_0_of_1"));
    }
    dlbench::generation::GenerateDataset(config, comm, env);
    return 0;
  });
}
