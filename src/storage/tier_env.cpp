#include "storage/tier_env.h"

#include <utility>

#include "util/path_text.h"
#include "util/size_text.h"

namespace dlbench::storage {
TierEnv::TierEnv(Env& base, std::vector<TierSpec> tiers, ThrottleClock& clock)
    : MountTable(base), tiers_(std::move(tiers)) {
  for (const TierSpec& tier : tiers_) {
    if (tier.emulated()) {
      ThrottleOptions options;
      options.bandwidth = tier.bandwidth_limit;
      options.latency = tier.latency;
      mount_folder(tier.path, std::make_unique<ThrottledEnv>(schemes(), options, clock));
    } else {
      mount_folder(tier.path, schemes());
    }
  }
}

const TierSpec* TierEnv::tier_of(const std::string& path) const {
  const std::size_t folder = folder_of(path);
  return folder != std::string::npos ? &tiers_[folder] : nullptr;
}

const TierSpec* TierEnv::tier_named(const std::string& name) const {
  for (const TierSpec& tier : tiers_) {
    if (tier.name == name) return &tier;
  }
  return nullptr;
}

std::vector<std::string> TierEnv::emulation_notes() const {
  std::vector<std::string> notes;
  for (const TierSpec& tier : tiers_) {
    if (!tier.emulated() && !tier.capacity) continue;
    std::string note = "storage tier " + tier.name + " (" + tier.path + "): emulated";
    std::string separator = " ";
    if (tier.bandwidth_limit) {
      note += separator + "bandwidth_limit " + DescribeRate(*tier.bandwidth_limit) +
              " (one token bucket shared by the rank's threads)";
      separator = ", ";
    }
    if (tier.latency > 0) {
      note += separator + "latency " + DescribeSeconds(tier.latency) + " per operation";
      separator = ", ";
    }
    if (tier.capacity) {
      note +=
          separator + "capacity " + DescribeBytes(*tier.capacity) + " (burst-buffer backpressure)";
    }
    notes.push_back(std::move(note));
  }
  return notes;
}

}  // namespace dlbench::storage
