// Per-tier operation counts (storage::CountingEnv, one per storage tier and one for paths under
// no tier), so that a run can show which tier its reads came from: training after staging must
// read only the fast tier, and the per-epoch and on-demand policies read a share of each. Every
// operation is routed by the tier of its path (a rename by its destination's) to that tier's
// CountingEnv, which passes it on to the TierEnv (so throttling still applies). Thread-safe as
// CountingEnv is (one mutex per tier): meant for runs that stage, not for every run. Files it
// opens refer to it, so it must outlive them; the TierEnv must outlive it.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "storage/counting_env.h"
#include "storage/env_wrapper.h"
#include "storage/tier_env.h"

namespace dlbench::staging {

class TierCountingEnv final : public storage::EnvWrapper {
 public:
  explicit TierCountingEnv(storage::TierEnv& tiers);

  // Counts since construction or the last reset, by tier name; paths under no tier are
  // counted under kUntiered.
  std::map<std::string, storage::IoCounts> counts() const;
  void reset();

  static constexpr const char* kUntiered = "(no tier)";

  std::unique_ptr<storage::ReadableFile> open_read(
      const std::string& path, const storage::OpenOptions& options = {}) override;
  std::unique_ptr<storage::WritableFile> create(const std::string& path,
                                                const storage::OpenOptions& options = {}) override;
  std::unique_ptr<storage::WritableFile> open_write(
      const std::string& path, const storage::OpenOptions& options = {}) override;
  void rename(const std::string& from, const std::string& to) override;
  void create_directories(const std::string& path) override;
  void remove(const std::string& path) override;
  void remove_tree(const std::string& path) override;
  std::vector<storage::DirectoryEntry> list_directory(const std::string& path) override;
  bool exists(const std::string& path) override;
  Bytes file_size(const std::string& path) override;
  void sync_directory(const std::string& path) override;
  Bytes free_space(const std::string& path) override;

 private:
  storage::CountingEnv& counter_for(const std::string& path);

  const storage::TierEnv& tiers_;
  // counters_[i] counts tiers_.tiers()[i]; the last one counts paths under no tier.
  std::vector<std::unique_ptr<storage::CountingEnv>> counters_;
};

}  // namespace dlbench::staging
