// Per-tier operation counts, so that a run can show which tier its reads came from: training
// after staging must read only the fast tier, and the per-epoch and on-demand policies read a
// share of each. They are derived after the fact from the run's per-path Darshan records
// (storage::CountingEnv, always on), each path summed under the tier that holds it: nothing is
// counted twice and nothing is added to the read path.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "storage/io_counts.h"
#include "storage/tier_env.h"

namespace dlbench::staging {

// Where paths under no tier are counted.
inline constexpr const char* kUntiered = "(no tier)";

// `files`' counters merged (storage::MergeCounts) by the tier of their path: one entry per tier
// of `tiers` and one kUntiered, each present even when no file is under it. A rename counts on
// its source's record (POSIX_RENAME_SOURCES) and on its destination's (POSIX_RENAME_TARGETS).
std::map<std::string, storage::IoCounts> CountsPerTier(
    const storage::TierEnv& tiers, const std::vector<storage::FileCounts>& files);

}  // namespace dlbench::staging
