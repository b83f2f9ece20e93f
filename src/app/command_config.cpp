// `dlbench config show` and `dlbench config query`: the resolved configuration, as DLIO's
// `--cfg job` and `dlio_benchmark_query` give it.
#include <CLI/CLI.hpp>
#include <memory>

#include "app/cli_options.h"
#include "app/commands.h"
#include "app/workload_loading.h"
#include "config/load.h"
#include "util/sink.h"

namespace dlbench::app {

void AddConfigCommand(CLI::App& app, CommandAction& action) {
  CLI::App* config = app.add_subcommand("config", "Show the resolved configuration of a workload");
  config->require_subcommand(1);

  auto show_options = std::make_shared<WorkloadOptions>();
  CLI::App* show = config->add_subcommand(
      "show", "Print the fully resolved configuration (defaults and overrides applied) as YAML");
  AddWorkloadOptions(*show, *show_options, /*with_output=*/false);
  auto show_ranks = std::make_shared<int>(0);
  AddRanksOption(*show, *show_ranks, "Validate for this many ranks");
  show->callback([show_options, show_ranks, &action] {
    action.parallelism = Parallelism::kLocal;
    action.run = [show_options, show_ranks](const mpi::Communicator& comm) {
      if (*show_ranks > 0) show_options->world_size = *show_ranks;
      const config::Config resolved = LoadWorkload(*show_options, comm);
      sink::Result(config::ToYaml(resolved));
      return 0;
    };
  });

  auto query_options = std::make_shared<WorkloadOptions>();
  auto key = std::make_shared<std::string>();
  CLI::App* query = config->add_subcommand(
      "query",
      "Print one resolved value, e.g. `dlbench config query unet3d_h100 dataset.num_files_train`");
  query->add_option("workload", query_options->workload, "Workload name or YAML file")->required();
  query->add_option("key", *key, "Dotted key, e.g. reader.batch_size")->required();
  query->add_option("overrides", query_options->overrides, "DLIO overrides, as for `run`");
  query->add_option("--config-dir", query_options->config_dirs, "Extra workload folder");
  query->add_flag("--allow-unknown-keys", query_options->allow_unknown_keys,
                  "Warn about unknown YAML keys instead of failing");
  auto query_ranks = std::make_shared<int>(0);
  AddRanksOption(*query, *query_ranks, "Validate for this many ranks");
  query->callback([query_options, query_ranks, key, &action] {
    action.parallelism = Parallelism::kLocal;
    action.run = [query_options, query_ranks, key](const mpi::Communicator& comm) {
      if (*query_ranks > 0) query_options->world_size = *query_ranks;
      const config::Config resolved = LoadWorkload(*query_options, comm);
      sink::Result(config::Query(resolved, *key) + "\n");
      return 0;
    };
  });
}

}  // namespace dlbench::app
