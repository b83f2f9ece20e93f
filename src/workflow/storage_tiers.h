// storage.tiers for a whole run: one storage::TierEnv per rank through which every phase does its
// I/O, so that a tier's emulation (bandwidth_limit as one token bucket shared by all the rank's
// threads, latency per operation) applies to data, generation and checkpoints alike.
#pragma once

#include <memory>
#include <vector>

#include "config/config.h"
#include "metrics/json_fields.h"
#include "mpi/communicator.h"
#include "storage/tier_env.h"

namespace dlbench::workflow {

// storage.tiers as storage/ knows them.
std::vector<storage::TierSpec> TierSpecsFromConfig(const config::StorageConfig& storage);

// Collective (a bad tier is a configuration error, agreed and printed once). Rank 0 prints one
// line per emulated tier unless `quiet`, so that no result is mistaken for the real device's.
std::unique_ptr<storage::TierEnv> MakeRunStorage(const config::Config& config, storage::Env& base,
                                                 bool quiet, const mpi::Communicator& comm);

// {"storage_emulation": [notes...]} for summary.json, or an empty object when nothing is emulated.
metrics::Json EmulationSummary(const storage::TierEnv& tiers);

// Collective. {"fault_injection": {faults, operations, max_operations_of_a_rank, injected}} for
// summary.json when DLBENCH_FAULTS is set (storage/fault_environment.h): the storage operations
// the ranks attempted and the faults injected, summed over ranks (and the most operations of one
// rank: the range of nth=); an empty object otherwise.
metrics::Json FaultInjectionSummary(const mpi::Communicator& comm);

// Collective. {"io_retries": {interrupted, short_transfers}}: what the POSIX Env retried
// (storage::PosixRetries), summed over ranks, when it retried anything or faults are armed; an
// empty object otherwise.
metrics::Json RetrySummary(const mpi::Communicator& comm);

}  // namespace dlbench::workflow
