// CountingEnv within a memory budget (limit_records): files beyond it fold into one record per
// group, the totals stay what an unbounded wrapper counts, and the folded record says roughly how
// many files it holds.
#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

#include "storage/counting_env.h"
#include "storage/distinct_count.h"
#include "support/test_support.h"

namespace dlbench::storage {
namespace {

using test::TempDir;

// Writes `files` files of 100 bytes, then reads each once (the first five twice) through `env`.
void WriteAndRead(Env& env, const TempDir& dir, int files) {
  char buffer[100] = {};
  for (int i = 0; i < files; ++i) {
    auto out = env.create(dir / ("f" + std::to_string(1000 + i)));
    out->append(buffer, sizeof buffer);
    out->close();
  }
  for (int pass = 0; pass < 2; ++pass) {
    for (int i = 0; i < (pass == 0 ? files : 5); ++i) {
      auto in = env.open_read(dir / ("f" + std::to_string(1000 + i)));
      EXPECT_EQ(in->read_at(0, buffer, sizeof buffer), 100u);
    }
  }
}

TEST(CountingBudget, FilesBeyondTheBudgetFoldIntoOneRecordAndTotalsStayExact) {
  TempDir bounded_dir, unbounded_dir;
  CountingEnv bounded(PosixEnv()), unbounded(PosixEnv());
  const std::size_t cost = CountingEnv::RecordCost((bounded_dir / "f1000").string().size());
  bounded.limit_records(10 * cost);
  WriteAndRead(bounded, bounded_dir, 100);
  WriteAndRead(unbounded, unbounded_dir, 100);

  const IoCounts a = bounded.counts(), b = unbounded.counts();
  EXPECT_EQ(a.opens, b.opens);
  EXPECT_EQ(a.creates, b.creates);
  EXPECT_EQ(a.closes, b.closes);
  EXPECT_EQ(a.reads, b.reads);
  EXPECT_EQ(a.writes, b.writes);
  EXPECT_EQ(a.bytes_read, b.bytes_read);
  EXPECT_EQ(a.bytes_written, b.bytes_written);
  EXPECT_EQ(a.size_read, b.size_read);
  EXPECT_EQ(a.size_write, b.size_write);
  EXPECT_EQ(a.max_byte_read, b.max_byte_read);
  EXPECT_EQ(a.accesses, b.accesses);

  EXPECT_EQ(bounded.records(), 10u);
  const std::vector<FileCounts> files = bounded.files();
  ASSERT_EQ(files.size(), 11u);
  for (std::size_t i = 0; i < 10; ++i) {
    EXPECT_EQ(files[i].folded_files, 0u);
    // The first ten files made records of their own and kept them for their second reads.
    EXPECT_EQ(files[i].path, bounded_dir / ("f" + std::to_string(1000 + i)));
    EXPECT_EQ(files[i].counts.opens, i < 5 ? 3u : 2u);
  }
  const FileCounts& folded = files.back();
  EXPECT_EQ(folded.path, CountingEnv::kFoldedPath);
  EXPECT_NEAR(static_cast<double>(folded.folded_files), 90.0, 4.0);
  EXPECT_EQ(folded.counts.opens, 180u);
  EXPECT_EQ(folded.counts.bytes_read, 9000u);
}

TEST(CountingBudget, AZeroBudgetFoldsEveryFileIntoItsGroup) {
  TempDir dir;
  CountingEnv env(PosixEnv());
  env.limit_records(0, [](const std::string& path) {
    return path.back() % 2 == 0 ? std::string("even") : std::string("odd");
  });
  WriteAndRead(env, dir, 10);
  EXPECT_EQ(env.records(), 0u);
  const std::vector<FileCounts> files = env.files();
  ASSERT_EQ(files.size(), 2u);
  EXPECT_EQ(files[0].path, "even");
  EXPECT_EQ(files[1].path, "odd");
  for (const FileCounts& group : files) {
    EXPECT_EQ(group.folded_files, 5u);
    EXPECT_EQ(group.counts.creates, 5u);
    EXPECT_EQ(group.counts.bytes_written, 500u);
  }
  EXPECT_EQ(env.counts().opens, 25u);
  // reset() zeroes the folded records too.
  env.reset();
  EXPECT_EQ(env.counts().opens, 0u);
  EXPECT_EQ(env.files()[0].counts.opens, 0u);
}

TEST(CountingBudget, FoldedFilesAreCountedFromManyThreads) {
  TempDir dir;
  {
    CountingEnv setup(PosixEnv());
    WriteAndRead(setup, dir, 40);
  }
  CountingEnv env(PosixEnv());
  env.limit_records(0);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      char buffer[100];
      for (int i = 0; i < 40; ++i) {
        auto in = env.open_read(dir / ("f" + std::to_string(1000 + i)));
        in->read_at(0, buffer, sizeof buffer);
      }
    });
  }
  for (auto& thread : threads) thread.join();
  const std::vector<FileCounts> files = env.files();
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0].folded_files, 40u);
  EXPECT_EQ(files[0].counts.reads, 160u);
  EXPECT_EQ(files[0].counts.bytes_read, 16000u);
  EXPECT_EQ(files[0].counts.closes, 160u);
}

// Exact up to kExact distinct values, whatever the hashes' collisions in the registers.
TEST(DistinctCount, CountsExactlyUpToItsLimit) {
  for (std::uint64_t n : {1u, 40u, 128u}) {
    DistinctCount count;
    for (std::uint64_t i = 0; i < n; ++i) {
      count.add(CountingEnv::HashPath("/tmp/x/f" + std::to_string(i)));
      count.add(CountingEnv::HashPath("/tmp/x/f" + std::to_string(i)));
    }
    EXPECT_EQ(count.estimate(), n);
    count.clear();
    EXPECT_EQ(count.estimate(), 0u);
  }
}

TEST(DistinctCount, EstimatesWithinAFewPercent) {
  DistinctCount small, large;
  for (std::uint64_t i = 0; i < 200; ++i) {
    for (int repeat = 0; repeat < 3; ++repeat) small.add(CountingEnv::HashPath(std::to_string(i)));
  }
  EXPECT_NEAR(static_cast<double>(small.estimate()), 200.0, 6.0);
  for (std::uint64_t i = 0; i < 200000; ++i) {
    large.add(CountingEnv::HashPath("/data/train/img_" + std::to_string(i) + ".npz"));
  }
  EXPECT_NEAR(static_cast<double>(large.estimate()), 200000.0, 200000.0 * 0.1);
  EXPECT_EQ(DistinctCount().estimate(), 0u);
}

}  // namespace
}  // namespace dlbench::storage
