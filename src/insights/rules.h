// The insight rules: each a pure function of the run's facts that returns its finding, or
// nullopt when the run does not show it (the thresholds: thresholds.h, docs/insights.md).
// Evaluate (insights.h) runs them all, in the order of its table (insights.cpp).
#pragma once

#include <optional>
#include <vector>

#include "insights/finding.h"
#include "insights/run_facts.h"

namespace dlbench::insights {

// read_rules.cpp
std::optional<Finding> StorageBound(const RunFacts& facts);
// Load waits as storage_bound's, with a trace that shows the reader threads mostly in the
// emulated preprocessing; storage_bound is then silent.
std::optional<Finding> PreprocessBound(const RunFacts& facts);
std::optional<Finding> SmallReads(const RunFacts& facts);
std::optional<Finding> MetadataBound(const RunFacts& facts);
std::optional<Finding> FirstEpochSlower(const RunFacts& facts);
std::optional<Finding> PageCacheServed(const RunFacts& facts);
// Over the runs of a set in the order they ran (`--repeat`): the later runs read the same bytes
// faster than the first (its id is page_cache_served too).
std::optional<Finding> PageCacheServedOnRerun(const std::vector<RunFacts>& runs);
// rank_rules.cpp
std::optional<Finding> RankImbalance(const RunFacts& facts);
std::optional<Finding> SharedFileContention(const RunFacts& facts);
// checkpoint_rules.cpp
std::optional<Finding> CheckpointStall(const RunFacts& facts);
std::optional<Finding> DrainBacklog(const RunFacts& facts);
std::optional<Finding> EvalDominates(const RunFacts& facts);
// object_rules.cpp
std::optional<Finding> RequestLatencyBound(const RunFacts& facts);
std::optional<Finding> Retries(const RunFacts& facts);

}  // namespace dlbench::insights
