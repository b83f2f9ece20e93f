#include "staging/file_cache.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <thread>

#include "support/files.h"
#include "support/test_support.h"
#include "util/error.h"

namespace dlbench::staging {
namespace {

using test::TempDir;

// Eight units of 1000 bytes, each a data file and an index file of 10 bytes.
std::vector<CacheUnit> MakeUnits(const TempDir& dir) {
  std::vector<CacheUnit> units;
  for (int i = 0; i < 8; ++i) {
    const std::string name = "f" + std::to_string(i);
    dir.write("cap/" + name, std::string(1000, static_cast<char>('a' + i)));
    dir.write("cap/idx/" + name, std::string(10, static_cast<char>('A' + i)));
    units.push_back(
        {{{(dir / ("cap/" + name)).string(), (dir / ("fast/" + name)).string()},
          {(dir / ("cap/idx/" + name)).string(), (dir / ("fast/idx/" + name)).string()}},
         1010});
  }
  return units;
}

CopyOptions Options() {
  CopyOptions options;
  options.threads = 2;
  options.buffer_bytes = 256;
  return options;
}

TEST(FileCache, OnDemandCopiesOnFirstFetchWithinCapacity) {
  TempDir dir;
  const std::vector<CacheUnit> units = MakeUnits(dir);
  FileCache cache(storage::PosixEnv(), units, 3 * 1010, Options());
  EXPECT_FALSE(cache.cached(0));
  EXPECT_TRUE(cache.fetch(0));
  EXPECT_TRUE(cache.cached(0));
  EXPECT_EQ(test::ReadFile(units[0].files[0].to), test::ReadFile(units[0].files[0].from));
  EXPECT_EQ(test::ReadFile(units[0].files[1].to), test::ReadFile(units[0].files[1].from));
  EXPECT_TRUE(cache.fetch(0));  // no second copy
  EXPECT_EQ(cache.stats().copied.files_copied, 2u);
  EXPECT_TRUE(cache.fetch(1));
  EXPECT_TRUE(cache.fetch(2));
  EXPECT_FALSE(cache.fetch(3));  // full: read from where it is
  EXPECT_FALSE(std::filesystem::exists(units[3].files[0].to));
  EXPECT_EQ(cache.stats().no_room, 1u);
  EXPECT_EQ(cache.stats().peak_bytes, 3u * 1010);
}

TEST(FileCache, ConcurrentFetchesOfOneUnitCopyItOnce) {
  TempDir dir;
  FileCache cache(storage::PosixEnv(), MakeUnits(dir), 100000, Options());
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back(
        [&cache, t] { EXPECT_TRUE(cache.fetch(static_cast<std::size_t>(t % 2))); });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(cache.stats().copied.files_copied, 4u);
}

TEST(FileCache, PrefetchEvictsWhatIsNoLongerWantedAndStaysWithinCapacity) {
  TempDir dir;
  const std::vector<CacheUnit> units = MakeUnits(dir);
  FileCache cache(storage::PosixEnv(), units, 4 * 1010, Options());
  cache.prefetch({0, 1, 2, 3, 4, 5});  // only four fit
  cache.wait();
  for (std::size_t i = 0; i < 4; ++i) EXPECT_TRUE(cache.cached(i)) << i;
  EXPECT_FALSE(cache.cached(4));
  EXPECT_EQ(cache.stats().no_room, 2u);
  cache.prefetch({2, 3, 6, 7});
  cache.wait();
  EXPECT_FALSE(cache.cached(0));
  EXPECT_FALSE(std::filesystem::exists(units[0].files[0].to));
  EXPECT_FALSE(std::filesystem::exists(units[1].files[1].to));
  for (const std::size_t i : {2, 3, 6, 7}) EXPECT_TRUE(cache.cached(i)) << i;
  EXPECT_EQ(cache.stats().evictions, 2u);
  EXPECT_LE(cache.stats().peak_bytes, 4u * 1010);
  EXPECT_EQ(test::ReadFile(units[7].files[0].to), test::ReadFile(units[7].files[0].from));
  cache.clear();
  for (std::size_t i = 0; i < units.size(); ++i) {
    EXPECT_FALSE(cache.cached(i));
    EXPECT_FALSE(std::filesystem::exists(units[i].files[0].to));
  }
}

TEST(FileCache, APrefetchErrorIsRethrownAndTheUnitStaysUncached) {
  TempDir dir;
  std::vector<CacheUnit> units = MakeUnits(dir);
  std::filesystem::remove(units[1].files[0].from);
  FileCache cache(storage::PosixEnv(), units, 100000, Options());
  cache.prefetch({1});
  EXPECT_THROW(cache.wait(), Error);
  EXPECT_FALSE(cache.cached(1));
  EXPECT_THROW(cache.fetch(1), Error);
  EXPECT_TRUE(cache.fetch(2));
}

}  // namespace
}  // namespace dlbench::staging
