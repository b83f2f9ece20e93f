#include "storage/tier_env.h"

#include <gtest/gtest.h>

#include <mutex>
#include <string>
#include <vector>

#include "memory_shared_file.h"
#include "support/expect_error.h"
#include "support/test_support.h"
#include "util/error.h"

namespace dlbench::storage {
namespace {

// Time moves only when a throttle sleeps.
class SleepCountingClock final : public ThrottleClock {
 public:
  Seconds now() override {
    std::lock_guard lock(mutex_);
    return now_;
  }
  void sleep_for(Seconds duration) override {
    std::lock_guard lock(mutex_);
    now_ += duration;
    ++sleeps_;
  }
  int sleeps() {
    std::lock_guard lock(mutex_);
    return sleeps_;
  }

 private:
  std::mutex mutex_;
  Seconds now_ = 0.0;
  int sleeps_ = 0;
};

void WriteBytes(Env& env, const std::string& path, Bytes bytes) {
  const std::vector<char> data(bytes, 'x');
  auto file = env.create(path);
  file->append(data.data(), bytes);
  file->close();
}

class TierEnvTest : public ::testing::Test {
 protected:
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  TierEnv make_tiers() {
    // "slow" sits inside "fast": the longer prefix wins.
    std::vector<TierSpec> tiers = {
        {.name = "fast", .path = path("a"), .bandwidth_limit = 4.0 * MiB},
        {.name = "slow", .path = path("a/b/"), .bandwidth_limit = 1.0 * MiB, .latency = 0.5},
        {.name = "plain", .path = path("p")},
    };
    return TierEnv(PosixEnv(), tiers, clock_);
  }

  test::TempDir dir_;
  SleepCountingClock clock_;
};

TEST_F(TierEnvTest, LongestFolderPrefixWinsComponentByComponent) {
  TierEnv env = make_tiers();
  EXPECT_EQ(env.tier_of(path("a/x"))->name, "fast");
  EXPECT_EQ(env.tier_of(path("a"))->name, "fast");
  EXPECT_EQ(env.tier_of(path("a/b/c/d"))->name, "slow");
  EXPECT_EQ(env.tier_of(path("a/b"))->name, "slow");
  EXPECT_EQ(env.tier_of(path("a/bc"))->name, "fast");  // not under a/b
  EXPECT_EQ(env.tier_of(path("ab/x")), nullptr);       // not under a
  EXPECT_EQ(env.tier_of(path("a/b/../x"))->name, "fast");
  EXPECT_EQ(env.tier_of(path("p/q"))->name, "plain");
  EXPECT_EQ(env.tier_of(dir_.path().string()), nullptr);
  EXPECT_EQ(env.tier_named("slow")->path, path("a/b/"));
  EXPECT_EQ(env.tier_named("nvme"), nullptr);
}

TEST_F(TierEnvTest, EachTierThrottlesAtItsOwnRateWithOneBucketPerTier) {
  TierEnv env = make_tiers();
  PosixEnv().create_directories(path("a/b"));
  PosixEnv().create_directories(path("p"));
  // fast: 4 MiB/s with a 10 ms burst (ThrottledEnv's default), starting empty: the first MiB
  // takes 0.25 s; two further files of 2 MiB each share the bucket, so they cost 1 s together.
  WriteBytes(env, path("a/f1"), MiB);
  EXPECT_DOUBLE_EQ(clock_.now(), 0.25);
  WriteBytes(env, path("a/f2"), 2 * MiB);
  WriteBytes(env, path("a/f3"), 2 * MiB);
  EXPECT_DOUBLE_EQ(clock_.now(), 1.25);

  // slow: 1 MiB/s and 0.5 s per operation (create, the write, close is not throttled).
  const Seconds before = clock_.now();
  WriteBytes(env, path("a/b/s1"), 3 * MiB);
  // create: 0.5 s; write: 0.5 s, then 3 MiB less the 10 ms burst (10,485 bytes) the idle bucket
  // gathered: 2.99 s (a 1 MiB burst let a third of the file through at once).
  EXPECT_NEAR(clock_.now() - before, 0.5 + 0.5 + (3.0 * MiB - 10485) / MiB, 1e-9);

  // No emulation outside tiers or on a tier without limits: time does not move.
  const int sleeps = clock_.sleeps();
  WriteBytes(env, path("p/x"), 3 * MiB);
  WriteBytes(env, path("outside"), 3 * MiB);
  EXPECT_EQ(clock_.sleeps(), sleeps);
  EXPECT_EQ(env.file_size(path("a/b/s1")), 3 * MiB);
  EXPECT_EQ(PosixEnv().file_size(path("outside")), 3 * MiB);
}

// A shared file (MPI-IO) under a tier pays the tier's bandwidth like any other file.
TEST_F(TierEnvTest, SharedFilesAreThrottledByTheirTier) {
  TierEnv env = make_tiers();
  test::MemorySharedOpener opener;
  const std::vector<char> data(2 * MiB, 'x');
  auto file = env.open_shared(path("a/shared.bin"), opener);
  file->write_at_all(0, data.data(), data.size());
  file->close();
  EXPECT_DOUBLE_EQ(clock_.now(), 0.5);  // fast: 2 MiB at 4 MiB/s
  auto outside = env.open_shared(path("outside.bin"), opener);
  outside->write_at_all(0, data.data(), data.size());
  outside->close();
  EXPECT_DOUBLE_EQ(clock_.now(), 0.5);
}

TEST_F(TierEnvTest, ReadsAreChargedToTheTierAndReturnTheBytes) {
  TierEnv env = make_tiers();
  PosixEnv().create_directories(path("a/b"));
  {
    auto out = PosixEnv().create(path("a/b/r"));
    out->append("hello", 5);
    out->close();
  }
  const Seconds before = clock_.now();
  auto in = env.open_read(path("a/b/r"));
  char text[8] = {};
  EXPECT_EQ(in->read_at(0, text, sizeof text), 5u);
  EXPECT_EQ(std::string(text, 5), "hello");
  EXPECT_DOUBLE_EQ(clock_.now() - before, 1.0);  // open and read: two latencies of 0.5 s
}

TEST_F(TierEnvTest, MetadataOperationsPayTheLatencyOfTheirTier) {
  TierEnv env = make_tiers();
  env.create_directories(path("a/b/c"));  // 0.5
  EXPECT_DOUBLE_EQ(clock_.now(), 0.5);
  WriteBytes(PosixEnv(), path("a/b/c/.t"), 1);
  env.rename(path("a/b/c/.t"), path("a/b/c/t"));  // 0.5
  env.sync_directory(path("a/b/c"));              // 0.5
  EXPECT_TRUE(env.exists(path("a/b/c/t")));       // 0.5
  env.remove(path("a/b/c/t"));                    // 0.5
  EXPECT_DOUBLE_EQ(clock_.now(), 2.5);
  EXPECT_FALSE(PosixEnv().exists(path("a/b/c/t")));
  EXPECT_EQ(env.list_directory(path("a/b")).size(), 1u);  // 0.5
  EXPECT_GT(env.free_space(path("a/b")), 0u);             // 0.5
  env.remove_tree(path("a/b/c"));                         // 0.5, whatever the tree holds
  EXPECT_DOUBLE_EQ(clock_.now(), 4.0);
  EXPECT_FALSE(PosixEnv().exists(path("a/b/c")));
  env.list_directory(path("p"));  // an unemulated tier: no latency
  EXPECT_DOUBLE_EQ(clock_.now(), 4.0);
}

TEST_F(TierEnvTest, NotesNameEveryEmulatedTier) {
  std::vector<TierSpec> tiers = {
      {.name = "nvme", .path = path("bb"), .capacity = 64 * GiB},
      {.name = "pfs", .path = path("pfs"), .bandwidth_limit = 400.0 * MiB, .latency = 0.002},
      {.name = "plain", .path = path("plain")},
  };
  TierEnv env(PosixEnv(), tiers, clock_);
  const std::vector<std::string> notes = env.emulation_notes();
  ASSERT_EQ(notes.size(), 2u);
  EXPECT_EQ(notes[0], "storage tier nvme (" + path("bb") +
                          "): emulated capacity 64 GiB (burst-buffer backpressure)");
  EXPECT_EQ(notes[1], "storage tier pfs (" + path("pfs") +
                          "): emulated bandwidth_limit 400 MiB/s (one token bucket shared by the "
                          "rank's threads), latency 2 ms per operation");
  EXPECT_TRUE(TierEnv(PosixEnv(), {{.name = "x", .path = path("x")}}).emulation_notes().empty());
}

}  // namespace
}  // namespace dlbench::storage
