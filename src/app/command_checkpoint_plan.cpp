// `dlbench checkpoint plan WORKLOAD [--ranks N]`: the files and bytes every rank would write,
// computed from the byte model without writing anything, so a 405B plan can be checked on a
// laptop.
#include <CLI/CLI.hpp>
#include <memory>

#include "app/cli_options.h"
#include "app/commands.h"
#include "app/workload_loading.h"
#include "checkpoint/plan.h"
#include "checkpoint/plan_report.h"
#include "util/sink.h"

namespace dlbench::app {

void AddCheckpointPlanCommand(CLI::App& checkpoint, CommandAction& action) {
  auto options = std::make_shared<WorkloadOptions>();
  // Validated for the checkpoint phase alone: a training workload's dataset rules (steps per
  // epoch at N ranks) refused `checkpoint plan unet3d_h100 --ranks 64`, a plan of checkpoints.
  options->forced = config::Phase::kCheckpoint;
  auto ranks = std::make_shared<int>(0);
  CLI::App* plan = checkpoint.add_subcommand(
      "plan", "Print the per-rank checkpoint files and bytes of a workload without writing them");
  AddWorkloadOptions(*plan, *options, /*with_output=*/false);
  AddRanksOption(*plan, *ranks, "Plan for this many ranks");
  plan->callback([options, ranks, &action] {
    if (options->workload.empty()) throw CLI::RequiredError("workload");
    action.parallelism = Parallelism::kLocal;
    action.run = [options, ranks](const mpi::Communicator& comm) {
      options->world_size = *ranks > 0 ? *ranks : JobSize(comm);
      const config::Config config = LoadWorkload(*options, comm);
      const checkpoint::CheckpointPlan byte_plan(config.model, config.checkpoint,
                                                 *options->world_size);
      checkpoint::PlanReportOptions report;
      report.title = config.model.name;
      sink::Result(checkpoint::RenderPlan(byte_plan, report));
      return 0;
    };
  });
}

}  // namespace dlbench::app
