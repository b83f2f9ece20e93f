// Every consistency rule a loaded Config must satisfy, in one place.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "config/config.h"
#include "config/config_builder.h"
#include "config/phase.h"

namespace dlbench::config {

// Throws Error(kUsage) for the first rule broken, naming the keys involved, where they were
// set and what is allowed. Rules that only warrant a warning add to `notices`. Rules on what a
// phase needs apply when it runs: `forced` alone (LoadOptions::forced), else the phases the
// workflow section enables.
void Validate(const Config& config, const KeyOrigins& origins, int world_size,
              std::optional<Phase> forced, std::vector<std::string>& notices);

// What dataset.content.encoding `auto` stands for (config::Load resolves it): `assembled` for the
// files there is an assembler for — jpeg and png with content.kind random, csv uncompressed or
// gzip — else `per_file`. Other values are returned as they are.
ContentEncoding ResolvedContentEncoding(const DatasetConfig& dataset);

// The rule for a DLIO time value (computation_time, preprocess_time, eval_time): throws
// Error(kUsage) naming `key` when no draw can be made from `distribution`. Validate() applies it
// to the configured values at load; pipeline::TimeSampler to the ones a caller hands it.
void CheckTimeDistribution(const std::string& key, const TimeDistribution& distribution);

}  // namespace dlbench::config
