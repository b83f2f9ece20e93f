// `dlbench checkpoint plan WORKLOAD [--ranks N]`: the files and bytes every rank would write,
// computed from the byte model without writing anything, so a 405B plan can be checked on a
// laptop.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>

#include "app/cli_options.h"
#include "app/commands.h"
#include "app/workload_loading.h"
#include "checkpoint/plan.h"
#include "checkpoint/plan_report.h"
#include "mpi/agreement.h"

namespace dlbench::app {

void AddCheckpointPlanCommand(CLI::App& checkpoint, const mpi::Communicator& comm,
                              CommandAction& action) {
  auto options = std::make_shared<WorkloadOptions>();
  auto ranks = std::make_shared<int>(0);
  CLI::App* plan = checkpoint.add_subcommand(
      "plan", "Print the per-rank checkpoint files and bytes of a workload without writing them");
  AddWorkloadOptions(*plan, *options, /*with_output=*/false);
  plan->add_option("--ranks,-n", *ranks,
                   "Plan for this many ranks (default: the job's size, 1 without mpirun)")
      ->check(CLI::PositiveNumber);
  plan->callback([options, ranks, &comm, &action] {
    if (options->workload.empty()) throw CLI::RequiredError("workload");
    action = [options, ranks, &comm] {
      if (*ranks > 0) options->world_size = *ranks;
      const config::Config config = LoadWorkload(*options, comm);
      std::string text;
      mpi::AgreeOnFailure(comm, [&] {
        const checkpoint::CheckpointPlan byte_plan(config.model, config.checkpoint,
                                                   options->world_size.value_or(comm.size()));
        checkpoint::PlanReportOptions report;
        report.title = config.model.name;
        text = checkpoint::RenderPlan(byte_plan, report);
      });
      if (comm.is_root()) std::fputs(text.c_str(), stdout);
      return 0;
    };
  });
}

}  // namespace dlbench::app
