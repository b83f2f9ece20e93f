#include "staging/tier_counts.h"

namespace dlbench::staging {

TierCountingEnv::TierCountingEnv(storage::TierEnv& tiers) : EnvWrapper(tiers), tiers_(tiers) {
  for (std::size_t i = 0; i <= tiers.tiers().size(); ++i) {
    counters_.push_back(std::make_unique<storage::CountingEnv>(tiers));
  }
}

storage::CountingEnv& TierCountingEnv::counter_for(const std::string& path) {
  const storage::TierSpec* tier = tiers_.tier_of(path);
  if (tier == nullptr) return *counters_.back();
  return *counters_[static_cast<std::size_t>(tier - tiers_.tiers().data())];
}

std::map<std::string, storage::IoCounts> TierCountingEnv::counts() const {
  std::map<std::string, storage::IoCounts> counts;
  for (std::size_t i = 0; i < tiers_.tiers().size(); ++i) {
    counts[tiers_.tiers()[i].name] = counters_[i]->counts();
  }
  counts[kUntiered] = counters_.back()->counts();
  return counts;
}

void TierCountingEnv::reset() {
  for (const auto& counter : counters_) counter->reset();
}

std::unique_ptr<storage::ReadableFile> TierCountingEnv::open_read(
    const std::string& path, const storage::OpenOptions& options) {
  return counter_for(path).open_read(path, options);
}
std::unique_ptr<storage::WritableFile> TierCountingEnv::create(
    const std::string& path, const storage::OpenOptions& options) {
  return counter_for(path).create(path, options);
}
std::unique_ptr<storage::WritableFile> TierCountingEnv::open_write(
    const std::string& path, const storage::OpenOptions& options) {
  return counter_for(path).open_write(path, options);
}
void TierCountingEnv::rename(const std::string& from, const std::string& to) {
  counter_for(to).rename(from, to);
}
void TierCountingEnv::create_directories(const std::string& path) {
  counter_for(path).create_directories(path);
}
void TierCountingEnv::remove(const std::string& path) { counter_for(path).remove(path); }
void TierCountingEnv::remove_tree(const std::string& path) { counter_for(path).remove_tree(path); }
std::vector<storage::DirectoryEntry> TierCountingEnv::list_directory(const std::string& path) {
  return counter_for(path).list_directory(path);
}
bool TierCountingEnv::exists(const std::string& path) { return counter_for(path).exists(path); }
Bytes TierCountingEnv::file_size(const std::string& path) {
  return counter_for(path).file_size(path);
}
void TierCountingEnv::sync_directory(const std::string& path) {
  counter_for(path).sync_directory(path);
}
Bytes TierCountingEnv::free_space(const std::string& path) {
  return counter_for(path).free_space(path);
}

}  // namespace dlbench::staging
