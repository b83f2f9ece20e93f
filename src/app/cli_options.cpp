#include "app/cli_options.h"

#include <CLI/CLI.hpp>
#include <limits>

namespace dlbench::app {

void AddWorkloadOptions(CLI::App& command, WorkloadOptions& options, bool with_output) {
  command.add_option("workload", options.workload,
                     "Workload name (see `dlbench workloads`), workload=NAME, or a YAML file");
  command.add_option("overrides", options.overrides,
                     "DLIO overrides: ++workload.a.b=v (add or set), workload.a.b=v (set), "
                     "+workload.a.b=v (add), a.b=v, ~a.b (reset to default)");
  command.add_option("--config-dir", options.config_dirs,
                     "Extra folder searched for WORKLOAD.yaml before the shipped workloads "
                     "(repeatable; DIR/workload/NAME.yaml also works, as in DLIO)");
  command.add_flag("--allow-unknown-keys", options.allow_unknown_keys,
                   "Warn about unknown YAML keys instead of failing");
  if (with_output) {
    command.add_option("--output,-o", options.output,
                       "Output folder (default: output.folder, else output/<model>/<time>/)");
    command.add_flag("--quiet,-q", options.quiet, "No progress line and no table on the terminal");
    command.add_flag("--progress", options.progress,
                     "Show the live progress line even under mpirun (shown by default only when "
                     "running alone on a terminal)");
    command.add_flag("--trace", options.trace,
                     "Write a DFTracer/Perfetto trace per rank into the output folder "
                     "(trace-<rank>-of-<ranks>.pfw.gz; same as workflow.profiling: True)");
    command
        .add_option("--op-log", options.op_log,
                    "Write one line per S3 request to FILE, in MinIO warp's op-log columns "
                    "(FILE.<rank> for each rank of a job of several; same as "
                    "storage.storage_options.op_log)")
        ->type_name("FILE");
    command.add_flag("--force", options.force,
                     "Write into an output, data or checkpoint folder that is not empty and was "
                     "not made by dlbench (no .dlbench-folder marker); dlbench still replaces "
                     "only the files it names. The root, system folders, the home folder and "
                     "folders holding a symbolic link are refused even so");
  }
}

void AddRanksOption(CLI::App& command, int& ranks, const std::string& what) {
  command.add_option("--ranks,-n", ranks, what + " (default: the job's size, 1 without mpirun)")
      ->check(CLI::Range(1, std::numeric_limits<int>::max()));
}

}  // namespace dlbench::app
