#include "workflow/storage_tiers.h"

#include <cstdlib>

#include "storage/fault_environment.h"

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

metrics::Json EmulationSummary(const storage::TierEnv& tiers) {
  metrics::Json json = metrics::Json::object();
  const std::vector<std::string> notes = tiers.emulation_notes();
  if (!notes.empty()) json["storage_emulation"] = notes;
  return json;
}

metrics::Json FaultInjectionSummary(const mpi::Communicator& comm) {
  metrics::Json json = metrics::Json::object();
  const storage::FaultInjectionEnv* faults = storage::ArmedFaults();
  // Every rank of a job has the same environment: armed on all or on none.
  if (faults == nullptr) return json;
  metrics::Json& f = json["fault_injection"];
  const char* text = std::getenv(storage::kFaultsVariable);
  f["faults"] = text != nullptr ? text : "";
  f["operations"] = comm.sum(faults->operations());
  f["max_operations_of_a_rank"] = comm.max(faults->operations());
  f["injected"] = comm.sum(faults->injected());
  return json;
}

metrics::Json RetrySummary(const mpi::Communicator& comm) {
  const storage::IoRetries mine = storage::PosixRetries();
  const std::uint64_t interrupted = comm.sum(mine.interrupted);
  const std::uint64_t short_transfers = comm.sum(mine.short_transfers);
  metrics::Json json = metrics::Json::object();
  if (interrupted + short_transfers == 0 && storage::ArmedFaults() == nullptr) return json;
  json["io_retries"] = {{"interrupted", interrupted}, {"short_transfers", short_transfers}};
  return json;
}

}  // namespace dlbench::workflow
