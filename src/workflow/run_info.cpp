#include "workflow/run_info.h"

#include <string>

#include "config/distribution_parser.h"
#include "metrics/clock.h"
#include "metrics/host_lists.h"
#include "metrics/summary.h"

namespace dlbench::workflow {

metrics::RunInfo GatherRunInfo(const config::Config& config, const mpi::Communicator& comm,
                               const metrics::HostInfo& host) {
  metrics::RunInfo info;
  info.num_accelerators = comm.size();
  info.hostname = host.hostname;
  info.host_processor_name = host.processor_name;
  info.host_cpuinfo = host.cpuinfo;
  info.host_meminfo = host.meminfo;
  const metrics::HostLists lists = metrics::GatherHostLists(comm, host);
  info.num_hosts = lists.num_hosts;
  info.host_cpu_count = lists.cpu_count;
  info.host_memory_GiB = lists.memory_GiB;
  info.num_files_train = static_cast<std::uint64_t>(config.dataset.num_files_train);
  info.num_files_eval = static_cast<std::uint64_t>(config.dataset.num_files_eval);
  info.num_samples_per_file = static_cast<std::uint64_t>(config.dataset.num_samples_per_file);
  info.data_size_per_host_GiB =
      metrics::DataSizePerHostGiB(comm.ranks_on_this_node(), comm.size(), info.num_samples_per_file,
                                  info.num_files_train, config.dataset.record_length_bytes);
  info.potential_caching =
      metrics::PotentialCaching(info.host_memory_GiB, info.data_size_per_host_GiB);
  info.storage_type = ToString(config.storage.storage_type);
  info.storage_library = config.storage.library();
  return info;
}

metrics::Json RunHeader(const config::Config& config, const mpi::Communicator& comm,
                        const std::string& start) {
  const std::string end = metrics::NowLocalRfc3339();
  metrics::RunInfo info = GatherRunInfo(config, comm, metrics::ReadHostInfo());
  info.start = comm.broadcast(start);
  info.end = comm.broadcast(end);
  metrics::Json header = metrics::BuildSummaryHeader(info);
  header["metric"] = metrics::Json::object();  // DLIO's readers index it; no phase added to it
  return header;
}

namespace {

// A time value as compare shows it: a number for a constant, else {"type", its parameters}
// (config::DistributionToNode's explicit form, the one home of each type's parameters).
metrics::Json TimeIdentity(const config::TimeDistribution& time) {
  const config::DocNode node = config::DistributionToNode(time);
  if (node.kind != config::DocNode::Kind::kMap) return time.mean;
  metrics::Json out = metrics::Json::object();
  for (const auto& [key, value] : node.entries) {
    if (key == "type") {
      out[key] = value.text;
    } else {
      out[key] = std::stod(value.text);
    }
  }
  return out;
}

}  // namespace

metrics::Json WorkloadIdentity(const config::Config& config) {
  const config::DatasetConfig& dataset = config.dataset;
  metrics::Json identity;
  identity["name"] = config.model.name;
  identity["train"] = config.workflow.train;
  identity["checkpoint"] = config.workflow.checkpoint;
  identity["format"] = config::ToString(dataset.format);
  identity["num_files_train"] = dataset.num_files_train;
  identity["num_samples_per_file"] = dataset.num_samples_per_file;
  identity["record_length_bytes"] = dataset.record_length_bytes;
  identity["batch_size"] = config.reader.batch_size;
  identity["epochs"] = config.train.epochs;
  // The emulated accelerator and preprocessing: runs of unet3d_a100 and unet3d_h100 (same
  // model name and dataset, 0.636 against 0.323 s a step) differ in samples/s by design.
  identity["computation_time"] = TimeIdentity(config.train.computation_time);
  identity["eval_time"] = TimeIdentity(config.evaluation.eval_time);
  identity["preprocess_time"] = TimeIdentity(config.reader.preprocess_time);
  identity["total_training_steps"] = config.train.total_training_steps;
  identity["model_size_bytes"] = config.model.model_size_bytes;
  identity["num_checkpoints_write"] = config.checkpoint.num_checkpoints_write;
  identity["num_checkpoints_read"] = config.checkpoint.num_checkpoints_read;
  identity["steps_between_checkpoints"] = config.checkpoint.steps_between_checkpoints;
  return {{"workload", identity}};
}

metrics::Json PageCacheSettings(const config::Config& config) {
  return {{"page_cache",
           {{"drop_caches", config::ToString(config.reader.drop_caches)},
            {"odirect", config.reader.odirect}}}};
}

}  // namespace dlbench::workflow
