#include "app/workload_loading.h"

#include "config/load.h"
#include "config/workload_catalog.h"
#include "mpi/agreement.h"
#include "mpi/launch.h"
#include "mpi/nodes.h"
#include "util/sink.h"

namespace dlbench::app {

int JobSize(const mpi::Communicator& comm) {
  return comm.uses_mpi() ? comm.size() : mpi::LaunchFromEnvironment().size;
}

config::Config LoadWorkload(const WorkloadOptions& options, const mpi::Communicator& comm) {
  config::LoadOptions load_options;
  load_options.config_dirs = options.config_dirs;
  load_options.workloads_dir = config::DefaultWorkloadsDir();
  load_options.allow_unknown_keys = options.allow_unknown_keys;
  load_options.world_size = options.world_size.value_or(JobSize(comm));
  load_options.forced = options.forced;
  load_options.output_folder = options.output;
  std::vector<std::string> overrides = options.overrides;
  if (options.trace) overrides.emplace_back("++workload.workflow.profiling=True");
  if (options.op_log) {
    overrides.emplace_back("++workload.storage.storage_options.op_log=" + *options.op_log);
  }
  config::LoadResult result;
  mpi::AgreeOnFailure(comm, [&] {
    load_options.node = mpi::NodeName();
    result = config::Load(options.workload, overrides, load_options);
  });
  if (comm.is_root()) {
    for (const auto& notice : result.notices) sink::Note(notice);
  }
  return result.config;
}

}  // namespace dlbench::app
