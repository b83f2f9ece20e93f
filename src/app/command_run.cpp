// `dlbench run` (the phases the workload's workflow enables) and `generate`, `train`,
// `checkpoint` (one phase each, whatever the workflow says).
#include <CLI/CLI.hpp>
#include <memory>

#include "app/cli_options.h"
#include "app/commands.h"
#include "app/workload_loading.h"
#include "workflow/output_folder.h"
#include "workflow/phases.h"
#include "workflow/progress_line.h"

namespace dlbench::app {
namespace {

int RunPhases(const WorkloadOptions& options, const std::vector<workflow::Phase>* forced,
              const mpi::Communicator& comm) {
  const config::Config config = LoadWorkload(options, comm);
  workflow::RunRequest request;
  request.phases = forced ? *forced : workflow::PhasesFromWorkflow(config.workflow);
  request.output_folder = workflow::ResolveOutputFolder(config, options.output, comm);
  request.quiet = options.quiet;
  request.progress = workflow::ShowProgress(options.progress, options.quiet);
  workflow::PrepareOutputFolder(request.output_folder, config, comm);
  return workflow::Run(config, request, comm);
}

CLI::App* AddPhaseCommand(CLI::App& app, const std::string& name, const std::string& description,
                          std::optional<workflow::Phase> phase, CommandAction& action) {
  auto options = std::make_shared<WorkloadOptions>();
  CLI::App* command = app.add_subcommand(name, description);
  AddWorkloadOptions(*command, *options, /*with_output=*/true);
  command->callback([options, phase, command, &action] {
    if (command->get_subcommands().size() > 0) return;  // e.g. `checkpoint plan`
    if (options->workload.empty()) throw CLI::RequiredError("workload");
    action.parallelism = Parallelism::kParallel;
    action.run = [options, phase](const mpi::Communicator& comm) {
      if (!phase) return RunPhases(*options, nullptr, comm);
      const std::vector<workflow::Phase> only{*phase};
      return RunPhases(*options, &only, comm);
    };
  });
  return command;
}

}  // namespace

void AddRunCommands(CLI::App& app, CommandAction& action) {
  AddPhaseCommand(app, "run",
                  "Run the phases the workload's `workflow` section enables (generate_data, "
                  "train with evaluation and checkpoints, or checkpoint-only)",
                  std::nullopt, action);
  AddPhaseCommand(app, "generate", "Generate the workload's dataset, whatever `workflow` says",
                  workflow::Phase::kGenerate, action);
  AddPhaseCommand(app, "train", "Replay the workload's training reads, whatever `workflow` says",
                  workflow::Phase::kTrain, action);
  CLI::App* checkpoint =
      AddPhaseCommand(app, "checkpoint",
                      "Write and read the workload's checkpoints alone (checkpoint-only mode); "
                      "`checkpoint plan` prints what would be written",
                      workflow::Phase::kCheckpoint, action);
  AddCheckpointPlanCommand(*checkpoint, action);
  AddCheckpointDrainCommand(*checkpoint, action);
}

}  // namespace dlbench::app
