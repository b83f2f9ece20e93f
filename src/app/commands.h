// The subcommands of `dlbench`. Each registers itself on the CLI11 app and, when chosen, installs
// the action that runs it, declaring whether that action does parallel work.
//
// MPI start-up costs a third of a second or more (a singleton MPI_Init without mpirun included),
// so MPI is initialised only for a parallel command, after the command line was parsed:
//  * Parallelism::kLocal: the work of one process (printing help, a version, a configuration, a
//    plan). MPI is never initialised; the action gets mpi::Communicator::Local(). Started under
//    mpirun, only the launcher's rank 0 runs it (mpi/launch.h) and the other ranks exit 0, so
//    its output and errors appear once. `--help`, `--version` and usage errors are handled the
//    same way, whatever the command.
//  * Parallel: every rank works on its share (generate, train, checkpoint, drain). MPI is
//    initialised and the action gets MPI_COMM_WORLD; failures are agreed across ranks or end
//    the job (error_reporting.h).
// A new command picks one in the CommandAction it installs; nothing else needs to change.
#pragma once

#include <functional>

#include "mpi/communicator.h"

namespace CLI {
class App;
}

namespace dlbench::app {

enum class Parallelism { kLocal, kParallel };

// Set by the chosen subcommand's callback during parsing; run after parsing succeeded.
struct CommandAction {
  Parallelism parallelism = Parallelism::kLocal;
  // Returns the process exit code. Empty: no command was chosen.
  std::function<int(const mpi::Communicator&)> run;
};

void AddRunCommands(CLI::App& app, CommandAction& action);
void AddConfigCommand(CLI::App& app, CommandAction& action);
// `checkpoint plan`, under the `checkpoint` command.
void AddCheckpointPlanCommand(CLI::App& checkpoint, CommandAction& action);
// `checkpoint drain`: finishes interrupted burst-buffer drains.
void AddCheckpointDrainCommand(CLI::App& checkpoint, CommandAction& action);
void AddWorkloadsCommand(CLI::App& app, CommandAction& action);
// `datasize`: MLPerf Storage's dataset-size rule for a client cluster (a local command).
void AddDatasizeCommand(CLI::App& app, CommandAction& action);
// `compare`: reads result files only, no rank talks to another (a local command).
void AddCompareCommand(CLI::App& app, CommandAction& action);
// `report`: an HTML file of result files (a local command too).
void AddReportCommand(CLI::App& app, CommandAction& action);
// `trace summary`: a summary of a run's traces and counters (a local command).
void AddTraceCommand(CLI::App& app, CommandAction& action);
// `sweep`: starts a job per point through a launcher (a local command: the jobs are parallel).
void AddSweepCommand(CLI::App& app, CommandAction& action);

}  // namespace dlbench::app
