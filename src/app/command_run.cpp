// `dlbench run` (the phases the workload's workflow enables) and `generate`, `train`,
// `checkpoint` (one phase each, whatever the workflow says).
#include <CLI/CLI.hpp>
#include <memory>

#include "app/cli_options.h"
#include "app/commands.h"
#include "app/repeated_runs.h"
#include "app/workload_loading.h"
#include "workflow/output_folder.h"
#include "workflow/phases.h"

namespace dlbench::app {
namespace {

int RunPhases(const WorkloadOptions& options, const std::vector<workflow::Phase>* forced,
              const RepeatOptions& repeat, const mpi::Communicator& comm) {
  const config::Config config = LoadWorkload(options, comm);
  const std::vector<workflow::Phase> phases =
      forced ? *forced : workflow::PhasesFromWorkflow(config.workflow);
  if (repeat.count > 1) return RunRepeated(options, config, phases, repeat, comm);
  return RunInFolder(config, phases, workflow::ResolveOutputFolder(config, options.output, comm),
                     options, comm);
}

CLI::App* AddPhaseCommand(CLI::App& app, const std::string& name, const std::string& description,
                          std::optional<workflow::Phase> phase, CommandAction& action) {
  auto options = std::make_shared<WorkloadOptions>();
  auto repeat = std::make_shared<RepeatOptions>();
  CLI::App* command = app.add_subcommand(name, description);
  AddWorkloadOptions(*command, *options, /*with_output=*/true);
  command
      ->add_option("--repeat", repeat->count,
                   "Run N times into OUTPUT/run-<i>/ with an aggregate (median, spread) in "
                   "OUTPUT/aggregate.json, for `dlbench compare`; the dataset is generated once")
      ->check(CLI::Range(1, 1000));
  command->add_flag("--fixed-seed", repeat->fixed_seed,
                    "With --repeat: every run uses train.seed (default: run i uses seed + i - 1)");
  command->callback([options, repeat, phase, command, &action] {
    if (command->get_subcommands().size() > 0) return;  // e.g. `checkpoint plan`
    if (options->workload.empty()) throw CLI::RequiredError("workload");
    action.parallelism = Parallelism::kParallel;
    action.run = [options, repeat, phase](const mpi::Communicator& comm) {
      if (!phase) return RunPhases(*options, nullptr, *repeat, comm);
      const std::vector<workflow::Phase> only{*phase};
      return RunPhases(*options, &only, *repeat, comm);
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
