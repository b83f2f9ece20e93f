// `dlbench datasize WORKLOAD --hosts N --accelerators-per-host K --host-memory-gib M`: how many
// training files MLPerf Storage's dataset-size rule asks for on that client cluster
// (dataset/mlperf_dataset_size.h), and the override that sets it. Computed, nothing written.
#include <CLI/CLI.hpp>
#include <memory>
#include <string>

#include "app/cli_options.h"
#include "app/commands.h"
#include "app/workload_loading.h"
#include "dataset/mlperf_dataset_size.h"
#include "util/sink.h"

namespace dlbench::app {
namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

void Print(const config::Config& config, const dataset::ClientHosts& hosts,
           const dataset::MlperfDatasetSize& size) {
  const long long accelerators = static_cast<long long>(hosts.hosts) * hosts.accelerators_per_host;
  const long long batch = config.reader.batch_size;
  const long long per_file = config.dataset.num_samples_per_file;
  sink::Result(sink::Format(
      "%s: MLPerf Storage dataset size for %d host(s) x %d accelerator(s), %g GiB each\n",
      config.model.name.c_str(), hosts.hosts, hosts.accelerators_per_host, hosts.memory_gib));
  sink::Result(
      sink::Format("  by memory: %d x %.6g GiB of memory / %.10g B per file -> %lld files\n",
                   dataset::kMlperfMemoryMultiple, static_cast<double>(size.memory_bytes) / kGiB,
                   size.file_bytes, static_cast<long long>(size.files_by_memory)));
  sink::Result(sink::Format(
      "  by steps:  %d steps x %lld accelerators x batch %lld / %lld per file -> %lld files\n",
      dataset::kMlperfMinimumSteps, accelerators, batch, per_file,
      static_cast<long long>(size.files_by_steps)));
  sink::Result(sink::Format(
      "  required:  %lld files, %.0f B (%.1f GiB), set by the %s\n",
      static_cast<long long>(size.files), size.total_bytes, size.total_bytes / kGiB,
      size.files_by_memory > size.files_by_steps ? "5x memory rule" : "500-step rule"));
  const long long has = config.dataset.num_files_train;
  sink::Result(sink::Format("  workload:  dataset.num_files_train is %lld (%s)\n", has,
                            has >= size.files ? "enough" : "below the minimum"));
  sink::Result(sink::Format("++workload.dataset.num_files_train=%lld\n",
                            static_cast<long long>(size.files)));
}

}  // namespace

void AddDatasizeCommand(CLI::App& app, CommandAction& action) {
  auto options = std::make_shared<WorkloadOptions>();
  auto hosts = std::make_shared<dataset::ClientHosts>();
  CLI::App* command = app.add_subcommand(
      "datasize",
      "Files MLPerf Storage's dataset-size rule asks for (at least 5x the client hosts' memory and "
      "500 steps), and the ++workload.dataset.num_files_train override to use");
  AddWorkloadOptions(*command, *options, /*with_output=*/false);
  command->add_option("--hosts", hosts->hosts, "Client hosts (nodes) that will train")->required();
  command
      ->add_option("--accelerators-per-host", hosts->accelerators_per_host,
                   "Emulated accelerators (ranks) per host")
      ->required();
  command->add_option("--host-memory-gib", hosts->memory_gib, "Memory of each host, GiB")
      ->required();
  command->callback([options, hosts, &action] {
    if (options->workload.empty()) throw CLI::RequiredError("workload");
    action.parallelism = Parallelism::kLocal;
    action.run = [options, hosts](const mpi::Communicator& comm) {
      // Validated as for generating the data on one rank: the workload's own num_files_train
      // may be too small for the cluster, which is what this command is asked about, and the
      // rank-count rules of checkpoints (TP x PP) are not about the dataset.
      options->world_size = 1;
      options->forced = config::Phase::kGenerate;
      const config::Config config = LoadWorkload(*options, comm);
      Print(config, *hosts, dataset::ComputeMlperfDatasetSize(config, *hosts));
      return 0;
    };
  });
}

}  // namespace dlbench::app
