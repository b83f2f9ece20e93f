#include "app/dlbench_main.h"

#include <CLI/CLI.hpp>
#include <cstdio>

#include "app/commands.h"
#include "app/error_reporting.h"
#include "app/version.h"
#include "mpi/communicator.h"

namespace dlbench::app {
namespace {

constexpr const char* kFooter = R"(Examples:
  dlbench workloads
  dlbench run default
  mpirun -np 8 dlbench run unet3d_h100 ++workload.dataset.data_folder=/lustre/x
  dlbench config show resnet50_h100 ++workload.reader.read_threads=16
  dlbench config query unet3d_h100 dataset.num_files_train
  dlbench compare results/baselines/ci_train_small out/ci_train_small --tolerance 10%

Exit codes: 0 ok, 1 internal error, 2 usage or configuration error, 3 I/O or data error,
4 regression found. Documentation: docs/ (start with README.md).)";

int Dispatch(int argc, char** argv, const mpi::Communicator& comm) {
  CLI::App app{
      "dlbench: storage benchmark for deep-learning training. Reads DLIO workload YAMLs, "
      "generates datasets, replays training reads and checkpoints, and reports what the "
      "storage delivered.",
      "dlbench"};
  app.set_version_flag("--version", std::string("dlbench ") + kVersion);
  app.footer(kFooter);
  app.require_subcommand(1);

  CommandAction action;
  AddRunCommands(app, comm, action);
  AddConfigCommand(app, comm, action);
  AddWorkloadsCommand(app, comm, action);
  AddCompareCommand(app, action);
  AddReportCommand(app, action);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    // Every rank parses the same arguments; only rank 0 speaks.
    const int code = comm.is_root() ? app.exit(error) : error.get_exit_code();
    return code == 0 ? 0 : static_cast<int>(ExitCode::kUsage);
  }
  return action ? action() : static_cast<int>(ExitCode::kUsage);
}

}  // namespace

int Main(int argc, char** argv) {
  mpi::Session session(&argc, &argv);
  const mpi::Communicator comm = session.world();
  return RunGuarded(comm, [&] { return Dispatch(argc, argv, comm); });
}

}  // namespace dlbench::app
