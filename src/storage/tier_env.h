// Storage tiers (storage.tiers): an Env that gives every path the emulation of the tier whose
// folder is the longest prefix of it, so that one machine can play a fast burst buffer and a slow
// parallel file system at once. Each tier with a bandwidth_limit or latency gets one ThrottledEnv,
// hence one token bucket shared by every thread of the rank that touches the tier; paths under no
// tier, and tiers without emulation, go straight to the base Env. Files it opens refer to it, so it
// must outlive them.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "storage/env_wrapper.h"
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

// Every operation goes to the Env of its path's tier (env_for), so each is overridden here; the
// target is the base Env.
class TierEnv final : public EnvWrapper {
 public:
  // `tiers` as config::Validate accepts them (config/storage_rules.cpp): named, each on its own
  // folder, a positive bandwidth_limit if any, a latency >= 0.
  TierEnv(Env& base, std::vector<TierSpec> tiers, ThrottleClock& clock = SteadyThrottleClock());

  // The tier holding `path` (longest folder prefix, compared component by component after making
  // both absolute and lexically normal), or nullptr.
  const TierSpec* tier_of(const std::string& path) const;
  const TierSpec* tier_named(const std::string& name) const;
  const std::vector<TierSpec>& tiers() const { return tiers_; }

  // One line per tier whose speed or size is emulated, for the terminal and result files, e.g.
  // "storage tier pfs (/lustre/proj): bandwidth_limit 400 MiB/s (one token bucket shared by the
  // rank's threads), latency 2 ms per operation". Empty when nothing is emulated.
  std::vector<std::string> emulation_notes() const;

  std::unique_ptr<ReadableFile> open_read(const std::string& path,
                                          const OpenOptions& options = {}) override;
  std::unique_ptr<ReadableFile> open_mapped(const std::string& path) override;
  std::unique_ptr<WritableFile> create(const std::string& path,
                                       const OpenOptions& options = {}) override;
  std::unique_ptr<WritableFile> create_for_publish(const std::string& path,
                                                   const PublishOptions& options = {}) override;
  std::unique_ptr<WritableFile> open_write(const std::string& path,
                                           const OpenOptions& options = {}) override;
  std::unique_ptr<SharedFile> open_shared(const std::string& path,
                                          SharedFileOpener& opener) override;
  // Charged to the destination's tier (a rename across tiers fails in the base Env anyway).
  void rename(const std::string& from, const std::string& to) override;
  void create_directories(const std::string& path) override;
  void remove(const std::string& path) override;
  void remove_tree(const std::string& path) override;
  std::vector<DirectoryEntry> list_directory(const std::string& path) override;
  bool exists(const std::string& path) override;
  Bytes file_size(const std::string& path) override;
  std::int64_t modified_ns(const std::string& path) override;
  void sync_directory(const std::string& path) override;
  Bytes free_space(const std::string& path) override;

 private:
  Env& env_for(const std::string& path);

  std::vector<TierSpec> tiers_;
  std::vector<std::string> folders_;                      // normalized tiers_[i].path
  std::vector<std::unique_ptr<ThrottledEnv>> throttles_;  // nullptr when not emulated
};

}  // namespace dlbench::storage
