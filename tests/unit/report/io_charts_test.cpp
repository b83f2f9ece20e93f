// The report's I/O charts of hand-made run folders whose figures are worked out by hand: the
// access-size histograms must show summary.json's POSIX_SIZE_* counters and the bandwidth lines
// the traces' bytes per second, per rank and in total, as the report's marks print them.
#include "report/io_charts.h"

#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <string>

#include "compare/run_set.h"
#include "mark_titles.h"
#include "report/html_report.h"
#include "support/expect_error.h"
#include "support/test_support.h"

namespace dlbench::report {
namespace {

using test::TempDir;

// Rank 0 reads 1 MiB in second 1 and 2 MiB spread evenly over seconds 2 and 3; rank 1 writes
// 0.5 MiB in second 1 and reads 3 MiB in second 3.
const char* const kRank0 = R"([
{"id":1,"name":"pread64","cat":"POSIX","pid":1,"tid":1,"ts":1000000,"dur":0,"ph":"X","args":{"ret":1048576}}
{"id":2,"name":"pread64","cat":"POSIX","pid":1,"tid":1,"ts":2500000,"dur":1000000,"ph":"X","args":{"ret":2097152}}
{"id":3,"name":"compute","cat":"compute","pid":1,"tid":1,"ts":1000000,"dur":2000000,"ph":"X","args":{}}
]
)";
const char* const kRank1 = R"([
{"id":1,"name":"pwrite64","cat":"POSIX","pid":2,"tid":1,"ts":1200000,"dur":100,"ph":"X","args":{"ret":524288}}
{"id":2,"name":"pread64","cat":"POSIX","pid":2,"tid":1,"ts":3100000,"dur":10,"ph":"X","args":{"ret":3145728}}
]
)";

storage::IoCounts KnownCounts() {
  storage::IoCounts counts;
  counts.size_read = {0, 3, 0, 0, 17, 1200, 0, 0, 0, 0};
  counts.size_write = {0, 0, 0, 0, 0, 0, 5, 0, 0, 1};
  return counts;
}

void WriteSummary(const TempDir& dir, bool with_counters) {
  metrics::Json summary = {{"workload", {{"model", "known"}}}};
  if (with_counters)
    summary["posix_counters"]["totals"] = storage::CountsToJson<metrics::Json>(KnownCounts());
  dir.write("summary.json", summary.dump());
}

compare::Run LoadRun(const TempDir& dir) {
  return compare::LoadRunSet(dir.path().string()).runs[0];
}

TEST(IoCharts, HistogramsAndBandwidthInTheReportEqualTheCountersAndTrace) {
  TempDir dir;
  WriteSummary(dir, true);
  dir.write("trace-0-of-2.pfw", kRank0);
  dir.write("trace-1-of-2.pfw", kRank1);

  const IoData data = LoadIoData(storage::PosixEnv(), LoadRun(dir));
  EXPECT_TRUE(data.has_counters);
  EXPECT_EQ(data.size_read, KnownCounts().size_read);
  EXPECT_EQ(data.size_write, KnownCounts().size_write);
  ASSERT_TRUE(data.has_trace);
  EXPECT_EQ(data.bin_seconds, 1);
  ASSERT_EQ(data.read.size(), 3u);  // all ranks, rank 0, rank 1
  EXPECT_EQ(data.read[0].x, (std::vector<double>{0, 1, 2}));
  EXPECT_EQ(data.read[0].y, (std::vector<double>{1, 1, 4}));
  EXPECT_EQ(data.read[1].y, (std::vector<double>{1, 1, 1}));
  EXPECT_EQ(data.read[2].y, (std::vector<double>{0, 0, 3}));
  EXPECT_EQ(data.write[0].y, (std::vector<double>{0.5, 0, 0}));
  EXPECT_EQ(data.write[1].y, (std::vector<double>{0, 0, 0}));
  EXPECT_EQ(data.write[2].y, (std::vector<double>{0.5, 0, 0}));

  const std::string html = BuildHtmlReport({LoadRun(dir)});
  std::set<std::string> read_sizes, write_sizes;
  for (int b = 0; b < storage::kSizeBuckets; ++b) {
    const std::string bucket = storage::SizeBucketSuffix(b);
    const auto at = static_cast<std::size_t>(b);
    read_sizes.insert("all ranks, " + bucket + ": " + std::to_string(KnownCounts().size_read[at]));
    write_sizes.insert("all ranks, " + bucket + ": " +
                       std::to_string(KnownCounts().size_write[at]));
  }
  EXPECT_EQ(MarkTitles(html, "Read access sizes (POSIX_SIZE_READ_*), bytes"), read_sizes);
  EXPECT_EQ(MarkTitles(html, "Write access sizes (POSIX_SIZE_WRITE_*), bytes"), write_sizes);
  EXPECT_EQ(MarkTitles(html, "Read bandwidth over time (trace, 1-s bins)"),
            (std::set<std::string>{"all ranks at 0: 1", "all ranks at 1: 1", "all ranks at 2: 4",
                                   "rank 0 at 0: 1", "rank 0 at 1: 1", "rank 0 at 2: 1",
                                   "rank 1 at 0: 0", "rank 1 at 1: 0", "rank 1 at 2: 3"}));
  EXPECT_EQ(MarkTitles(html, "Write bandwidth over time (trace, 1-s bins)"),
            (std::set<std::string>{"all ranks at 0: 0.5", "all ranks at 1: 0", "all ranks at 2: 0",
                                   "rank 0 at 0: 0", "rank 0 at 1: 0", "rank 0 at 2: 0",
                                   "rank 1 at 0: 0.5", "rank 1 at 1: 0", "rank 1 at 2: 0"}));
  EXPECT_EQ(html.find("No trace"), std::string::npos);
  EXPECT_EQ(html.find("No POSIX counters"), std::string::npos);
}

TEST(IoCharts, ARunWithoutTraceOrCountersGetsNotesInsteadOfCharts) {
  TempDir dir;
  WriteSummary(dir, false);
  const std::string html = BuildHtmlReport({LoadRun(dir)});
  EXPECT_NE(html.find("No trace in this run folder: run with --trace"), std::string::npos);
  EXPECT_NE(html.find("No POSIX counters in summary.json"), std::string::npos);
  EXPECT_EQ(html.find("access sizes"), std::string::npos);
  EXPECT_EQ(html.find("Read bandwidth"), std::string::npos);
  EXPECT_EQ(html.find("Write bandwidth"), std::string::npos);
}

TEST(IoCharts, LongRunsGetWiderBinsHoldingTheMeanRate) {
  TempDir dir;
  WriteSummary(dir, true);
  // 3 MiB in second 0 and in second 699: 700 s in 3-s bins, the last bin one second long.
  dir.write("trace-0-of-1.pfw", R"([
{"id":1,"name":"read","cat":"POSIX","pid":1,"tid":1,"ts":0,"dur":10,"ph":"X","args":{"ret":3145728}}
{"id":2,"name":"read","cat":"POSIX","pid":1,"tid":1,"ts":699000000,"dur":10,"ph":"X","args":{"ret":3145728}}
]
)");
  const IoData data = LoadIoData(storage::PosixEnv(), LoadRun(dir));
  EXPECT_EQ(data.bin_seconds, 3);
  ASSERT_EQ(data.read.size(), 2u);
  const Series& all = data.read[0];
  ASSERT_EQ(all.y.size(), 234u);
  EXPECT_LE(all.y.size(), kMaxBandwidthPoints);
  EXPECT_EQ(all.y.front(), 1);  // 3 MiB over 3 s
  EXPECT_EQ(all.x.back(), 699);
  EXPECT_EQ(all.y.back(), 3);  // 3 MiB over the last bin's 1 s
  EXPECT_TRUE(data.write.empty() || data.write[0].y == std::vector<double>(234, 0.0));
  const std::string html = IoCharts(data);
  EXPECT_NE(html.find("Read bandwidth over time (trace, 3-s bins)"), std::string::npos);
  EXPECT_EQ(html.find("Write bandwidth"), std::string::npos);  // nothing written
}

TEST(IoCharts, ManyRanksAreDrawnAsTheirTotal) {
  TempDir dir;
  WriteSummary(dir, false);
  for (std::size_t r = 0; r <= kMaxRankLines; ++r) {
    dir.write("trace-" + std::to_string(r) + "-of-8.pfw",
              R"([
{"id":1,"name":"read","cat":"POSIX","pid":1,"tid":1,"ts":0,"dur":10,"ph":"X","args":{"ret":1048576}}
]
)");
  }
  const IoData data = LoadIoData(storage::PosixEnv(), LoadRun(dir));
  ASSERT_EQ(data.read.size(), 1u);
  EXPECT_EQ(data.read[0].y, std::vector<double>{8});
  EXPECT_NE(IoCharts(data).find("8 traced ranks, drawn as their total only"), std::string::npos);
}

TEST(IoCharts, BadInputsAreErrors) {
  TempDir dir;
  dir.write("summary.json", R"({"posix_counters":{"totals":{"POSIX_SIZE_READ_0_100":"many"}}})");
  test::ExpectError([&] { LoadIoData(storage::PosixEnv(), LoadRun(dir)); }, ExitCode::kUsage,
                    {"summary.json", "posix_counters.totals is not a counters object"});
  WriteSummary(dir, true);
  dir.write("trace-0-of-1.pfw", "[\n{\"name\": 3}\n]\n");
  test::ExpectError([&] { BuildHtmlReport({LoadRun(dir)}); }, ExitCode::kIo,
                    {"trace-0-of-1.pfw line 2", "not a DFTracer trace"});
}

}  // namespace
}  // namespace dlbench::report
