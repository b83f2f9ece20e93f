#include "workflow/storage_tiers.h"

#include "mpi/agreement.h"
#include "util/sink.h"

namespace dlbench::workflow {

std::vector<storage::TierSpec> TierSpecsFromConfig(const config::StorageConfig& storage) {
  std::vector<storage::TierSpec> specs;
  for (const config::TierConfig& tier : storage.tiers) {
    specs.push_back({.name = tier.name,
                     .path = tier.path,
                     .capacity = tier.capacity,
                     .bandwidth_limit = tier.bandwidth_limit,
                     .latency = tier.latency});
  }
  return specs;
}

std::unique_ptr<storage::TierEnv> MakeRunStorage(const config::Config& config, storage::Env& base,
                                                 bool quiet, const mpi::Communicator& comm) {
  std::unique_ptr<storage::TierEnv> tiers;
  mpi::AgreeOnFailure(comm, [&] {
    tiers = std::make_unique<storage::TierEnv>(base, TierSpecsFromConfig(config.storage));
  });
  if (comm.is_root() && !quiet) {
    std::string lines;
    for (const std::string& note : tiers->emulation_notes()) lines += "emulated: " + note + "\n";
    sink::Result(lines);
  }
  return tiers;
}

metrics::Json EmulationSummary(const storage::TierEnv& tiers) {
  metrics::Json json = metrics::Json::object();
  const std::vector<std::string> notes = tiers.emulation_notes();
  if (!notes.empty()) json["storage_emulation"] = notes;
  return json;
}

}  // namespace dlbench::workflow
