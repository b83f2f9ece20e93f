#include "storage/tier_env.h"

#include <utility>

#include "util/error.h"
#include "util/path_text.h"
#include "util/size_text.h"

namespace dlbench::storage {
TierEnv::TierEnv(Env& base, std::vector<TierSpec> tiers, ThrottleClock& clock)
    : EnvWrapper(base), tiers_(std::move(tiers)) {
  for (const TierSpec& tier : tiers_) {
    folders_.push_back(AbsoluteFolder(tier.path));
    if (tier.emulated()) {
      ThrottleOptions options;
      options.bandwidth = tier.bandwidth_limit;
      options.latency = tier.latency;
      throttles_.push_back(std::make_unique<ThrottledEnv>(target(), options, clock));
    } else {
      throttles_.push_back(nullptr);
    }
  }
}

const TierSpec* TierEnv::tier_of(const std::string& path) const {
  if (tiers_.empty()) return nullptr;
  const std::string normal = AbsoluteFolder(path);
  const TierSpec* best = nullptr;
  std::size_t best_length = 0;
  for (std::size_t i = 0; i < tiers_.size(); ++i) {
    if (FolderContains(folders_[i], normal) &&
        (best == nullptr || folders_[i].size() > best_length)) {
      best = &tiers_[i];
      best_length = folders_[i].size();
    }
  }
  return best;
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

Env& TierEnv::env_for(const std::string& path) {
  const TierSpec* tier = tier_of(path);
  if (tier == nullptr) return target();
  ThrottledEnv* throttle = throttles_[static_cast<std::size_t>(tier - tiers_.data())].get();
  return throttle != nullptr ? static_cast<Env&>(*throttle) : target();
}

std::unique_ptr<ReadableFile> TierEnv::open_read(const std::string& path,
                                                 const OpenOptions& options) {
  return env_for(path).open_read(path, options);
}

std::unique_ptr<ReadableFile> TierEnv::open_mapped(const std::string& path) {
  return env_for(path).open_mapped(path);
}

std::unique_ptr<WritableFile> TierEnv::create(const std::string& path, const OpenOptions& options) {
  return env_for(path).create(path, options);
}

std::unique_ptr<WritableFile> TierEnv::create_for_publish(const std::string& path,
                                                          const PublishOptions& options) {
  return env_for(path).create_for_publish(path, options);
}

std::unique_ptr<WritableFile> TierEnv::open_write(const std::string& path,
                                                  const OpenOptions& options) {
  return env_for(path).open_write(path, options);
}

std::unique_ptr<SharedFile> TierEnv::open_shared(const std::string& path,
                                                 SharedFileOpener& opener) {
  return env_for(path).open_shared(path, opener);
}

void TierEnv::rename(const std::string& from, const std::string& to) {
  env_for(to).rename(from, to);
}

void TierEnv::create_directories(const std::string& path) {
  env_for(path).create_directories(path);
}

void TierEnv::remove(const std::string& path) { env_for(path).remove(path); }

void TierEnv::remove_tree(const std::string& path) { env_for(path).remove_tree(path); }

std::vector<DirectoryEntry> TierEnv::list_directory(const std::string& path) {
  return env_for(path).list_directory(path);
}

bool TierEnv::exists(const std::string& path) { return env_for(path).exists(path); }

Bytes TierEnv::file_size(const std::string& path) { return env_for(path).file_size(path); }

std::int64_t TierEnv::modified_ns(const std::string& path) {
  return env_for(path).modified_ns(path);
}

void TierEnv::sync_directory(const std::string& path) { env_for(path).sync_directory(path); }

Bytes TierEnv::free_space(const std::string& path) { return env_for(path).free_space(path); }

}  // namespace dlbench::storage
