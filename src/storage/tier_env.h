// Storage tiers (storage.tiers): a mount table (storage/mount_table.h) with every tier's folder
// mounted, so that every path gets the emulation of the tier whose folder is the longest prefix of
// it and one machine can play a fast burst buffer and a slow parallel file system at once. Each
// tier with a bandwidth_limit or latency is mounted on one ThrottledEnv over the table's routing by
// scheme, hence one token bucket shared by every thread of the rank that touches the tier; tiers
// without emulation are mounted on that routing itself, and paths under no tier go to it too (the
// base Env for local paths, a scheme's Env for URIs). This is the run's storage
// (workflow/run_storage.h); other backends are mounted on it by scheme. Files it opens refer to
// it, so it must outlive them.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "storage/mount_table.h"
#include "storage/throttle_clock.h"
#include "storage/throttled_env.h"

namespace dlbench::storage {

// One tier, as configured (the fields of config::TierConfig, which storage/ does not include).
struct TierSpec {
  std::string name;
  std::string path;
  std::optional<Bytes> capacity =
      std::nullopt;  // not emulated here: the burst buffer's backpressure uses it
  std::optional<BytesPerSecond> bandwidth_limit = std::nullopt;
  Seconds latency = 0.0;

  bool emulated() const { return bandwidth_limit.has_value() || latency > 0; }
};

class TierEnv final : public MountTable {
 public:
  // `tiers` as config::Validate accepts them (config/storage_rules.cpp): named, each on its own
  // folder, a positive bandwidth_limit if any, a latency >= 0. Local paths go to `base`.
  TierEnv(Env& base, std::vector<TierSpec> tiers, ThrottleClock& clock = SteadyThrottleClock());

  // The tier holding `path` (longest folder prefix, compared component by component after making
  // both absolute and lexically normal: MountTable::folder_of), or nullptr.
  const TierSpec* tier_of(const std::string& path) const;
  const TierSpec* tier_named(const std::string& name) const;
  const std::vector<TierSpec>& tiers() const { return tiers_; }

  // One line per tier whose speed or size is emulated, for the terminal and result files, e.g.
  // "storage tier pfs (/lustre/proj): bandwidth_limit 400 MiB/s (one token bucket shared by the
  // rank's threads), latency 2 ms per operation". Empty when nothing is emulated.
  std::vector<std::string> emulation_notes() const;

 private:
  std::vector<TierSpec> tiers_;  // tiers_[i] is mounted folder i
};

}  // namespace dlbench::storage
