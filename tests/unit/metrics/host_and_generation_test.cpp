#include <gtest/gtest.h>

#include "metrics/host_info.h"
#include "metrics/host_lists.h"
#include "metrics/summary.h"
#include "support/test_support.h"
#include "util/error.h"

namespace dlbench::metrics {
namespace {

TEST(ParseProcKeyValues, AsDlioReadsProcFiles) {
  const auto values = ParseProcKeyValues(
      "processor\t: 0\nmodel name\t: Old CPU\nflags\t\t: fpu vme\n\n"
      "processor\t: 1\nmodel name\t: New CPU\nweird: a: b\nMemTotal:       16315248 kB\n");
  EXPECT_EQ(values.count("processor"), 0u);
  EXPECT_EQ(values.at("model name"), "New CPU");  // the last CPU wins
  EXPECT_EQ(values.at("flags"), "fpu vme");
  EXPECT_EQ(values.at("MemTotal"), "16315248 kB");
  EXPECT_EQ(values.count("weird"), 0u);  // more than one ':'
}

TEST(ReadProcKeyValues, MissingFileIsEmpty) {
  EXPECT_TRUE(ReadProcKeyValues("/nonexistent/dlbench/meminfo").empty());
}

TEST(ReadHostInfo, ThisHost) {
  const HostInfo info = ReadHostInfo();
  EXPECT_FALSE(info.hostname.empty());
  EXPECT_GT(info.cpu_count, 0);
  EXPECT_GT(info.memory_GiB, 0);
  EXPECT_TRUE(info.meminfo.count("MemTotal"));
}

TEST(Generation, TotalsOverUnequalRanks) {
  GenerationMetrics generation;
  generation.ranks = {{0.0, 4.0, 4 * MiB, 4}, {1.0, 8.0, 12 * MiB, 12}};
  const Json json = BuildGenerationSummary(generation);
  const Json& total = json["total"];
  EXPECT_EQ(total["bytes_written"], 16 * MiB);
  EXPECT_EQ(total["files"], 16);
  EXPECT_DOUBLE_EQ(total["wall_seconds"].get<double>(), 8.0);  // max end - min start
  EXPECT_DOUBLE_EQ(total["MiB_per_second"].get<double>(), 2.0);
  EXPECT_DOUBLE_EQ(total["files_per_second"].get<double>(), 2.0);
  ASSERT_EQ(json["ranks"].size(), 2u);
  EXPECT_EQ(json["ranks"][1]["rank"], 1);
  EXPECT_DOUBLE_EQ(json["ranks"][1]["wall_seconds"].get<double>(), 7.0);
  EXPECT_DOUBLE_EQ(json["ranks"][0]["MiB_per_second"].get<double>(), 1.0);
  EXPECT_EQ(GenerationTable(generation),
            "Generation: 16 files, 16777216 bytes (16.00 MiB) by 2 ranks in 8.000 s: "
            "2.00 MiB/s, 2.0 files/s\n");
}

TEST(Generation, NothingWrittenHasNoRates) {
  GenerationMetrics generation;
  generation.ranks = {{3.0, 3.0, 0, 0}};
  const Json total = BuildGenerationSummary(generation)["total"];
  EXPECT_FALSE(total.contains("MiB_per_second"));
  EXPECT_FALSE(total.contains("files_per_second"));
  EXPECT_TRUE(Json::accept(BuildGenerationSummary(GenerationMetrics{}).dump()));
  // A rerun that kept every file took time but wrote nothing: "0.00 MiB/s, 0.0 files/s" on the
  // terminal read as a storage that delivered nothing.
  generation.ranks = {{3.0, 3.5, 0, 0}, {3.0, 3.25, 0, 0}};
  EXPECT_EQ(GenerationTable(generation),
            "Generation: 0 files, 0 bytes (0.00 MiB) by 2 ranks in 0.500 s\n");
}

// One file by one rank: "1 files ... by 1 rank(s)" before.
TEST(Generation, CountsAgreeWithTheirNouns) {
  GenerationMetrics generation;
  generation.ranks = {{0.0, 2.0, 2 * MiB, 1}};
  EXPECT_EQ(GenerationTable(generation),
            "Generation: 1 file, 2097152 bytes (2.00 MiB) by 1 rank in 2.000 s: 1.00 MiB/s, "
            "0.5 files/s\n");
}

}  // namespace
}  // namespace dlbench::metrics

namespace dlbench::metrics {
namespace {

TEST(PerHost, FirstRankOfEachHostInRankOrder) {
  // Ranks 0, 2 on host 7; ranks 1, 3 on host 9; rank 4 on host 5.
  EXPECT_EQ(PerHost({7, 9, 7, 9, 5}, {10, 20, 11, 21, 30}), (std::vector<double>{10, 20, 30}));
  EXPECT_THROW(PerHost({1}, {}), Error);
}

TEST(PotentialCaching, OneWhenTheHostCanHoldItsData) {
  EXPECT_EQ(PotentialCaching({256, 64, 100}, 100), (std::vector<int>{1, 0, 0}));
}

TEST(GatherHostLists, ThisProcess) {
  const mpi::Communicator world = dlbench::test::World();
  if (world.size() != 1) GTEST_SKIP() << "multi-rank cases live in tests/mpi";
  HostInfo info;
  info.hostname = "a";
  info.cpu_count = 12;
  info.memory_GiB = 31.5;
  const HostLists lists = GatherHostLists(world, info);
  EXPECT_EQ(lists.num_hosts, 1);
  EXPECT_EQ(lists.cpu_count, (std::vector<int>{12}));
  EXPECT_EQ(lists.memory_GiB, (std::vector<double>{31.5}));
}

}  // namespace
}  // namespace dlbench::metrics
