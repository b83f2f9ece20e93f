// The fixture of the BurstBufferStore tests: a fast tier "nvme" and a capacity tier "pfs" in a
// temporary folder, the store made over an Env with the tiers' emulation applied as a run applies
// it, a one-rank plan of a few small files, and a throttle clock tests can gate.
#pragma once

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <condition_variable>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "checkpoint/burst_buffer_store.h"
#include "checkpoint/plan.h"
#include "config/config.h"
#include "storage/tier_env.h"
#include "support/test_support.h"
#include "unit/checkpoint/model_fixtures.h"
#include "util/file_names.h"

namespace dlbench::checkpoint {

namespace fs = std::filesystem;

inline constexpr Bytes kBuffer = 4096;

// One rank (unit tests run as a singleton): 2 layers, ZeRO 1 -> a handful of files of up to ~40 KB.
inline CheckpointPlan OneRankSmallPlan() {
  return CheckpointPlan(test::Transformer(2, 100, 32, 64, 4, 2, 1, 1, 1), test::Default(), 1);
}

// A throttle clock whose sleeps block drain threads while the gate is closed: a capacity tier with
// a latency then stalls the drain at its first operation until the test opens the gate. The test's
// own thread passes freely.
class GateClock final : public storage::ThrottleClock {
 public:
  Seconds now() override { return 0; }
  void sleep_for(Seconds) override {
    if (std::this_thread::get_id() == test_thread_) return;
    std::unique_lock lock(mutex_);
    opened_.wait(lock, [&] { return open_; });
  }
  void open() {
    {
      std::lock_guard lock(mutex_);
      open_ = true;
    }
    opened_.notify_all();
  }
  // Drain threads block again at their next sleep.
  void close() {
    std::lock_guard lock(mutex_);
    open_ = false;
  }

 private:
  std::mutex mutex_;
  std::condition_variable opened_;
  bool open_ = false;
  const std::thread::id test_thread_ = std::this_thread::get_id();
};

class BurstBufferStoreTest : public ::testing::Test {
 protected:
  BurstBufferStoreTest() {
    config_.storage.tiers.resize(2);
    config_.storage.tiers[0].name = "nvme";
    config_.storage.tiers[0].path = (dir_ / "bb").string();
    config_.storage.tiers[1].name = "pfs";
    config_.storage.tiers[1].path = (dir_ / "pfs").string();
    config_.checkpoint.checkpoint_folder = (dir_ / "pfs" / "ckpt").string();
    config_.checkpoint.verify = true;
    config_.checkpoint.burst_buffer = config::BurstBufferConfig{};
    config_.checkpoint.burst_buffer->tier = "nvme";
    // Not the default `auto`: what it does depends on whether $TMPDIR is in memory (tmpfs); the
    // tests that need preallocation ask for it, and those of `auto` say what the tier is.
    config_.checkpoint.burst_buffer->preallocate = config::Preallocate::kNo;
    tuning_.buffer_bytes = kBuffer;
  }
  // The store over `env` with storage.tiers' emulation applied as a run applies it (one TierEnv
  // per store here, kept for the whole test so that no store outlives its Env).
  std::unique_ptr<BurstBufferStore> make(storage::Env& env) {
    std::vector<storage::TierSpec> specs;
    for (const config::TierConfig& t : config_.storage.tiers) {
      specs.push_back({.name = t.name,
                       .path = t.path,
                       .capacity = t.capacity,
                       .bandwidth_limit = t.bandwidth_limit,
                       .latency = t.latency});
    }
    tier_envs_.push_back(std::make_unique<storage::TierEnv>(
        env, specs, clock_ != nullptr ? *clock_ : storage::SteadyThrottleClock()));
    return std::make_unique<BurstBufferStore>(config_, dlbench::test::World(), *tier_envs_.back(),
                                              0.0, tuning_);
  }
  fs::path fast(const std::string& name) const { return dir_ / "bb" / name; }
  fs::path capacity(const std::string& name) const { return dir_ / "pfs" / "ckpt" / name; }
  // The capacity-side copy is durable and holds exactly the planned files, nothing else.
  void expect_durable(const std::string& name) const {
    ASSERT_TRUE(fs::exists(capacity(name) / file_names::kCheckpointManifest)) << name;
    std::vector<std::string> found;
    for (const auto& entry : fs::directory_iterator(capacity(name))) {
      found.push_back(entry.path().filename().string());
    }
    const RankPlan mine = plan_.for_rank(0);
    EXPECT_EQ(found.size(), mine.files.size() + 1) << "markers or partial files left behind";
    for (const PlannedFile& f : mine.files) {
      EXPECT_EQ(fs::file_size(capacity(name) / f.name), f.bytes) << f.name;
    }
  }

  dlbench::test::TempDir dir_;
  config::Config config_;
  BurstBufferTuning tuning_;
  storage::ThrottleClock* clock_ = nullptr;  // the tiers' emulation clock; nullptr: steady
  std::vector<std::unique_ptr<storage::TierEnv>> tier_envs_;
  CheckpointPlan plan_ = OneRankSmallPlan();
};

// The inode of `path`: the same file overwritten in place keeps it.
inline ino_t Inode(const fs::path& path) {
  struct stat st {};
  EXPECT_EQ(::stat(path.c_str(), &st), 0) << path;
  return st.st_ino;
}

}  // namespace dlbench::checkpoint
