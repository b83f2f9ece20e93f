// `dlbench workloads`: what can be run by name.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <memory>

#include "app/commands.h"
#include "config/workload_catalog.h"

namespace dlbench::app {

void AddWorkloadsCommand(CLI::App& app, CommandAction& action) {
  auto config_dirs = std::make_shared<std::vector<std::string>>();
  CLI::App* command = app.add_subcommand("workloads", "List the workloads that can be run by name");
  command->add_option("--config-dir", *config_dirs, "Extra workload folder (repeatable)");
  command->callback([config_dirs, &action] {
    action.parallelism = Parallelism::kLocal;
    action.run = [config_dirs](const mpi::Communicator&) {
      const config::WorkloadCatalog catalog(*config_dirs, config::DefaultWorkloadsDir());
      const auto entries = catalog.List();
      std::size_t width = 0;
      for (const auto& entry : entries) width = std::max(width, entry.name.size());
      for (const auto& entry : entries) {
        std::printf("%-*s  %s\n", static_cast<int>(width), entry.name.c_str(),
                    entry.description.c_str());
      }
      if (entries.empty()) std::fprintf(stderr, "dlbench: no workloads found\n");
      return 0;
    };
  });
}

}  // namespace dlbench::app
