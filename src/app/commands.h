// The subcommands of `dlbench`. Each registers itself on the CLI11 app and returns, through the
// callback it installs, the process exit code.
#pragma once

#include <functional>

#include "mpi/communicator.h"

namespace CLI {
class App;
}

namespace dlbench::app {

// Set by the chosen subcommand's callback; run after parsing succeeded on every rank.
using CommandAction = std::function<int()>;

void AddRunCommands(CLI::App& app, const mpi::Communicator& comm, CommandAction& action);
void AddConfigCommand(CLI::App& app, const mpi::Communicator& comm, CommandAction& action);
// `checkpoint plan`, under the `checkpoint` command.
void AddCheckpointPlanCommand(CLI::App& checkpoint, const mpi::Communicator& comm,
                              CommandAction& action);
// `checkpoint drain`: finishes interrupted burst-buffer drains.
void AddCheckpointDrainCommand(CLI::App& checkpoint, const mpi::Communicator& comm,
                               CommandAction& action);
void AddWorkloadsCommand(CLI::App& app, const mpi::Communicator& comm, CommandAction& action);
// `compare`: reads result files only, no rank talks to another (not a parallel command).
void AddCompareCommand(CLI::App& app, CommandAction& action);
// `report`: an HTML file of result files (not a parallel command either).
void AddReportCommand(CLI::App& app, CommandAction& action);

}  // namespace dlbench::app
