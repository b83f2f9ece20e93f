#include "staging/tier_counts.h"

namespace dlbench::staging {

std::map<std::string, storage::IoCounts> CountsPerTier(
    const storage::TierEnv& tiers, const std::vector<storage::FileCounts>& files) {
  std::map<std::string, storage::IoCounts> counts;
  for (const storage::TierSpec& tier : tiers.tiers()) counts[tier.name];
  counts[kUntiered];
  for (const storage::FileCounts& file : files) {
    const storage::TierSpec* tier = tiers.tier_of(file.path);
    storage::MergeCounts(counts[tier != nullptr ? tier->name : kUntiered], file.counts);
  }
  return counts;
}

}  // namespace dlbench::staging
