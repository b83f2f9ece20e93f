// `dlbench workloads`: what can be run by name.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <memory>

#include "app/commands.h"
#include "config/workload_catalog.h"
#include "util/sink.h"

namespace dlbench::app {

void AddWorkloadsCommand(CLI::App& app, CommandAction& action) {
  auto config_dirs = std::make_shared<std::vector<std::string>>();
  CLI::App* command = app.add_subcommand("workloads", "List the workloads that can be run by name");
  command->add_option("--config-dir", *config_dirs, "Extra workload folder (repeatable)");
  command->callback([config_dirs, &action] {
    action.parallelism = Parallelism::kLocal;
    action.run = [config_dirs](const mpi::Communicator&) {
      const config::WorkloadCatalog catalog(*config_dirs, config::DefaultWorkloadsDir());
      const auto entries = catalog.list();
      std::size_t width = 0;
      for (const auto& entry : entries) width = std::max(width, entry.name.size());
      std::string listing;
      for (const auto& entry : entries) {
        listing += entry.name + std::string(width - entry.name.size(), ' ') + "  " +
                   entry.description + "\n";
      }
      sink::Result(listing);
      if (entries.empty()) {
        sink::Note("no workloads found in " + config::DefaultWorkloadsDir() +
                   " (the shipped folder; DLBENCH_WORKLOADS_DIR sets another)");
      }
      return 0;
    };
  });
}

}  // namespace dlbench::app
