// `dlbench run` (the phases the workload's workflow enables) and `generate`, `stage`, `train`,
// `checkpoint` (one phase each, whatever the workflow says).
#include <CLI/CLI.hpp>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "app/cli_options.h"
#include "app/commands.h"
#include "app/repeated_runs.h"
#include "app/workload_loading.h"
#include "config/workload_catalog.h"
#include "util/error.h"
#include "workflow/output_folder.h"
#include "workflow/phases.h"

namespace dlbench::app {
namespace {

int RunPhases(const WorkloadOptions& options, const std::vector<workflow::Phase>* forced,
              const RepeatOptions& repeat, const mpi::Communicator& comm) {
  const config::Config config = LoadWorkload(options, comm);
  const std::vector<workflow::Phase> phases =
      forced ? *forced : workflow::PhasesFromWorkflow(config.workflow, config.stage.policy);
  if (repeat.count > 1) return RunRepeated(options, config, phases, repeat, comm);
  return RunInFolder(config, phases, workflow::ResolveOutputFolder(config, options.output, comm),
                     options, comm);
}

// `dlbench checkpoint plna llama3_8b` read "plna" as the workload and suggested the workload
// dlrm: a word that is no workload but close to one of the command's subcommands is named as
// that subcommand's typo.
void RefuseMistypedSubcommand(const CLI::App& command, const WorkloadOptions& options) {
  std::vector<std::string> names;
  for (const CLI::App* sub : command.get_subcommands([](const CLI::App*) { return true; })) {
    names.push_back(sub->get_name());
  }
  const auto close = config::ClosestMatch(options.workload, names);
  if (!close) return;
  try {
    config::WorkloadCatalog(options.config_dirs, config::DefaultWorkloadsDir())
        .resolve(options.workload);
  } catch (const Error&) {
    // A parse error: printed once under mpirun (by the launcher's rank 0), with the help to read.
    throw CLI::ValidationError("unknown workload '" + options.workload +
                               "'; did you mean `dlbench " + command.get_name() + " " + *close +
                               "`?");
  }
}

// `flag_overrides`: overrides the command's own flags stand for, appended to the workload's.
CLI::App* AddPhaseCommand(CLI::App& app, const std::string& name, const std::string& description,
                          std::optional<workflow::Phase> phase, CommandAction& action,
                          std::shared_ptr<std::vector<std::string>> flag_overrides = nullptr) {
  auto options = std::make_shared<WorkloadOptions>();
  options->forced = phase;
  auto repeat = std::make_shared<RepeatOptions>();
  CLI::App* command = app.add_subcommand(name, description);
  AddWorkloadOptions(*command, *options, /*with_output=*/true);
  // What --repeat does with the dataset: `run` generates it once, outside the runs; `generate`
  // writes one per run (its measurement). Staging reruns copy nothing: `stage` refuses --repeat
  // with the reason (RunRepeated), and its help does not offer it.
  const bool stages = phase == workflow::Phase::kStage;
  const std::string dataset =
      phase == workflow::Phase::kGenerate
          ? "; each run generates the dataset again (into <data_folder>/run-<i>/)"
      : !phase ? "; a dataset generated before training or checkpoints is generated once (in "
                 "OUTPUT/generate/), generation alone writes one per run"
               : "";
  CLI::Option* repeat_option =
      command
          ->add_option("--repeat", repeat->count,
                       "Run N times into OUTPUT/run-<i>/ with an aggregate (median, spread) in "
                       "OUTPUT/aggregate.json, for `dlbench compare`" +
                           dataset)
          ->check(CLI::Range(1, 1000));
  CLI::Option* seed_option = command->add_flag(
      "--fixed-seed", repeat->fixed_seed,
      "With --repeat: every run uses train.seed (default: run i uses seed + i - 1)");
  if (stages) {
    repeat_option->group("");  // hidden: accepted only to be refused with the reason
    seed_option->group("");
  }
  command->callback([options, repeat, phase, command, flag_overrides, &action] {
    if (command->get_subcommands().size() > 0) return;  // e.g. `checkpoint plan`
    if (options->workload.empty()) throw CLI::RequiredError("workload");
    RefuseMistypedSubcommand(*command, *options);
    action.parallelism = Parallelism::kParallel;
    if (flag_overrides) {
      options->overrides.insert(options->overrides.end(), flag_overrides->begin(),
                                flag_overrides->end());
    }
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

  auto stage_flags = std::make_shared<std::vector<std::string>>();
  CLI::App* stage = AddPhaseCommand(
      app, "stage",
      "Copy the workload's dataset from one storage tier to another (the stage phase, "
      "docs/staging.md), whatever `workflow` says",
      workflow::Phase::kStage, action, stage_flags);
  auto flag = [stage_flags](const std::string& key) {
    return [stage_flags, key](const std::string& value) {
      stage_flags->push_back("++workload.stage." + key + "=" + value);
    };
  };
  stage->add_option_function<std::string>("--from", flag("from"),
                                          "Tier holding the dataset (default: stage.from, or the "
                                          "tier whose folder holds dataset.data_folder)");
  stage->add_option_function<std::string>("--to", flag("to"), "Tier to stage to (stage.to)");
  stage
      ->add_option_function<int>(
          "--threads", [f = flag("threads")](int threads) { f(std::to_string(threads)); },
          "Copy threads per rank (stage.threads)")
      ->check(CLI::Range(1, std::numeric_limits<int>::max()));
  stage->add_flag_callback(
      "--all-files", [f = flag("all_files")] { f("True"); },
      "Stage every file, not only those the ranks will read");
  stage->add_flag_callback(
      "--verify", [f = flag("verify")] { f("True"); },
      "Re-read every staged byte and compare it with the source");
  AddCheckpointDrainCommand(*checkpoint, action);
}

}  // namespace dlbench::app
