// Darshan's POSIX counters for fixed small access sequences, checked against values computed by
// hand from Darshan's update rules (docs/counters.md).
#include "storage/io_counts.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "storage/counting_env.h"
#include "support/test_support.h"

namespace dlbench::storage {
namespace {

using test::TempDir;

TEST(IoCounts, SizeBucketEdgesAreDarshans) {
  const std::vector<std::pair<Bytes, int>> edges = {
      {0, 0},         {100, 0},       {101, 1},        {1024, 1},       {1025, 2},
      {10240, 2},     {10241, 3},     {102400, 3},     {102401, 4},     {1048576, 4},
      {1048577, 5},   {4194304, 5},   {4194305, 6},    {10485760, 6},   {10485761, 7},
      {104857600, 7}, {104857601, 8}, {1073741824, 8}, {1073741825, 9}, {1ull << 40, 9}};
  for (const auto& [bytes, bucket] : edges) EXPECT_EQ(SizeBucket(bytes), bucket) << bytes;
  EXPECT_STREQ(SizeBucketSuffix(0), "0_100");
  EXPECT_STREQ(SizeBucketSuffix(9), "1G_PLUS");
}

TEST(IoCounts, CommonValuesRankByCountThenValue) {
  CommonValues a{{{4096, 3}, {100, 1}, {0, 0}, {0, 0}}};
  const CommonValues b{{{100, 2}, {8, 3}, {16, 1}, {4096, 1}}};
  MergeCommonValues(a, b);
  // 4096: 4, 100: 3, 8: 3, 16: 1 — equal counts by value descending.
  const CommonValues expected{{{4096, 4}, {100, 3}, {8, 3}, {16, 1}}};
  EXPECT_EQ(a, expected);
}

// One file of 1000 bytes read as Darshan would see it, with the counters worked out by hand.
TEST(IoCounts, ReadSequenceMatchesHandComputedCounters) {
  TempDir dir;
  const std::string path = dir.write("data.bin", std::string(1000, 'x'));
  CountingEnv env(PosixEnv());
  auto file = env.open_read(path);
  alignas(64) char buffer[2048];
  // offset  ret  last_byte before  seq  consec  stride
  //      0  100                 0   no      no       0
  //    100  100                99  yes     yes       0
  //    300  200               199  yes      no     100
  //    100   50               499   no      no       0
  //    990   10               149  yes      no     840
  //   1000    0               999  yes     yes       0 (EOF read: counted, size 0)
  EXPECT_EQ(file->read_at(0, buffer, 100), 100u);
  EXPECT_EQ(file->read_at(100, buffer, 100), 100u);
  EXPECT_EQ(file->read_at(300, buffer, 200), 200u);
  EXPECT_EQ(file->read_at(100, buffer + 1, 50), 50u);  // an unaligned buffer
  EXPECT_EQ(file->read_at(990, buffer, 2000), 10u);
  EXPECT_EQ(file->read_at(1000, buffer, 100), 0u);
  file.reset();

  const std::vector<FileCounts> files = env.files();
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0].path, path);
  const IoCounts& c = files[0].counts;
  EXPECT_EQ(c.opens, 1u);
  EXPECT_EQ(c.closes, 1u);
  EXPECT_EQ(c.reads, 6u);
  EXPECT_EQ(c.writes, 0u);
  EXPECT_EQ(c.bytes_read, 460u);
  EXPECT_EQ(c.max_byte_read, 999);
  EXPECT_EQ(c.seq_reads, 4u);
  EXPECT_EQ(c.consec_reads, 2u);
  EXPECT_EQ(c.rw_switches, 0u);
  EXPECT_EQ(c.mem_not_aligned, 1u);
  EXPECT_EQ(c.file_not_aligned, 5u);  // every offset but 0
  const std::array<std::uint64_t, kSizeBuckets> sizes = {5, 1, 0, 0, 0, 0, 0, 0, 0, 0};
  EXPECT_EQ(c.size_read, sizes);  // 100, 100, 50, 10, 0 in 0_100; 200 in 100_1K
  const CommonValues accesses{{{100, 2}, {200, 1}, {50, 1}, {10, 1}}};  // 0 is never entered
  EXPECT_EQ(c.accesses, accesses);
  const CommonValues strides{{{840, 1}, {100, 1}, {0, 0}, {0, 0}}};
  EXPECT_EQ(c.strides, strides);
  EXPECT_GT(c.read_time, 0);
  EXPECT_GT(c.meta_time, 0);
  EXPECT_GE(c.read_end, c.read_start);
  EXPECT_GT(c.read_start, 0);
  EXPECT_GE(c.max_read_time, 0);
}

TEST(IoCounts, WritesSyncsAndSwitchesFollowDarshan) {
  TempDir dir;
  CountingEnv env(PosixEnv());
  auto out = env.create(dir / "w.bin");
  const std::string block(4096, 'y');
  out->append(block.data(), 4096);         // offset 0: not sequential
  out->append(block.data(), 4096);         // 4096 = last byte + 1: consecutive
  out->write_at(10000, block.data(), 10);  // sequential, stride 10000 − 8191 − 1 = 1808
  out->sync();
  out->close();
  auto in = env.open_read(dir / "w.bin");  // a new open resets the last bytes
  char buffer[8];
  EXPECT_EQ(in->read_at(0, buffer, 8), 8u);
  in.reset();

  const IoCounts c = env.files().at(0).counts;
  EXPECT_EQ(c.opens, 2u);
  EXPECT_EQ(c.creates, 1u);
  EXPECT_EQ(c.writes, 3u);
  EXPECT_EQ(c.bytes_written, 8202u);
  EXPECT_EQ(c.max_byte_written, 10009);
  EXPECT_EQ(c.seq_writes, 2u);
  EXPECT_EQ(c.consec_writes, 1u);
  EXPECT_EQ(c.syncs, 1u);
  EXPECT_EQ(c.size_write[0], 1u);  // 10 bytes
  EXPECT_EQ(c.size_write[2], 2u);  // 4096 bytes
  const CommonValues accesses{{{4096, 2}, {10, 1}, {8, 1}, {0, 0}}};
  EXPECT_EQ(c.accesses, accesses);
  EXPECT_EQ(c.strides[0], (std::pair<std::int64_t, std::uint64_t>{1808, 1}));
  EXPECT_EQ(c.seq_reads, 0u);  // offset 0 after the reopen
  EXPECT_EQ(c.rw_switches, 1u);
  EXPECT_GT(c.write_time, 0);  // includes the fsync
  EXPECT_EQ(c.closes, 2u);
}

FileCounts Record(const std::string& path, std::int64_t rank, Bytes read, double time) {
  FileCounts f{path, rank, {}};
  f.counts.opens = 1;
  f.counts.reads = 2;
  f.counts.bytes_read = read;
  f.counts.max_byte_read = static_cast<std::int64_t>(read) - 1;
  f.counts.size_read[SizeBucket(read / 2)] = 2;
  f.counts.accesses[0] = {static_cast<std::int64_t>(read / 2), 2};
  f.counts.read_time = time;
  f.counts.read_start = 1.0 + static_cast<double>(rank);
  f.counts.read_end = 2.0 + static_cast<double>(rank);
  return f;
}

TEST(IoCounts, SharedFileReductionFollowsDarshan) {
  // "shared" is opened by both ranks; "only0" and "only1" by one each.
  const std::vector<std::vector<FileCounts>> per_rank = {
      {Record("only0", 0, 100, 0.5), Record("shared", 0, 2000, 1.0)},
      {Record("only1", 1, 300, 0.25), Record("shared", 1, 4000, 3.0)}};
  const std::vector<FileCounts> reduced = ReduceSharedFiles(per_rank);
  ASSERT_EQ(reduced.size(), 3u);
  EXPECT_EQ(reduced[0].path, "only0");
  EXPECT_EQ(reduced[0].rank, 0);
  EXPECT_EQ(reduced[1].path, "only1");
  EXPECT_EQ(reduced[1].rank, 1);
  const FileCounts& shared = reduced[2];
  EXPECT_EQ(shared.rank, -1);
  const IoCounts& c = shared.counts;
  EXPECT_EQ(c.opens, 2u);
  EXPECT_EQ(c.reads, 4u);
  EXPECT_EQ(c.bytes_read, 6000u);
  EXPECT_EQ(c.max_byte_read, 3999);
  EXPECT_DOUBLE_EQ(c.read_time, 4.0);
  EXPECT_DOUBLE_EQ(c.read_start, 1.0);  // minimum
  EXPECT_DOUBLE_EQ(c.read_end, 3.0);    // maximum
  EXPECT_EQ(c.size_read[SizeBucket(1000)], 2u);
  EXPECT_EQ(c.size_read[SizeBucket(2000)], 2u);
  const CommonValues accesses{{{2000, 2}, {1000, 2}, {0, 0}, {0, 0}}};
  EXPECT_EQ(c.accesses, accesses);
  EXPECT_EQ(c.fastest_rank, 0);
  EXPECT_EQ(c.fastest_rank_bytes, 2000);
  EXPECT_DOUBLE_EQ(c.fastest_rank_time, 1.0);
  EXPECT_EQ(c.slowest_rank, 1);
  EXPECT_EQ(c.slowest_rank_bytes, 4000);
  EXPECT_DOUBLE_EQ(c.slowest_rank_time, 3.0);
  EXPECT_DOUBLE_EQ(c.variance_rank_time, 1.0);         // times 1 and 3
  EXPECT_DOUBLE_EQ(c.variance_rank_bytes, 1000000.0);  // bytes 2000 and 4000

  // Darshan's estimate: unique files by their slowest rank (0.5 on rank 0) + the shared file's
  // slowest rank (3.0); 6400 bytes in 3.5 s.
  const AggregatePerformance perf = PerformanceBySlowest(reduced);
  EXPECT_EQ(perf.bytes, 6400u);
  EXPECT_DOUBLE_EQ(perf.time_by_slowest, 3.5);
  EXPECT_DOUBLE_EQ(perf.MiB_per_second, 6400.0 / 1048576.0 / 3.5);
}

TEST(IoCounts, OneRankKeepsItsRecords) {
  const std::vector<FileCounts> reduced = ReduceSharedFiles({{Record("f", 0, 100, 1.0)}});
  ASSERT_EQ(reduced.size(), 1u);
  EXPECT_EQ(reduced[0].rank, 0);
  EXPECT_EQ(reduced[0].counts.fastest_rank, -1);
}

TEST(IoCounts, VisitNamesEveryCounterOnce) {
  std::vector<std::string> names;
  IoCounts c;
  VisitCounters([&](const char* name, const auto&) { names.emplace_back(name); }, c);
  EXPECT_EQ(names.front(), "POSIX_OPENS");
  EXPECT_NE(std::find(names.begin(), names.end(), "POSIX_SIZE_WRITE_1G_PLUS"), names.end());
  EXPECT_NE(std::find(names.begin(), names.end(), "POSIX_ACCESS4_COUNT"), names.end());
  std::vector<std::string> sorted = names;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(std::adjacent_find(sorted.begin(), sorted.end()), sorted.end());
}

}  // namespace
}  // namespace dlbench::storage
