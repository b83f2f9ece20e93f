// The trace summary of hand-written DFTracer traces whose figures are worked out by hand, plain
// and gzip (several members), cut short the ways a killed rank leaves them, and garbage.
#include "trace_summary/trace_summary.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "support/expect_error.h"
#include "support/test_support.h"
#include "trace_summary/summary_format.h"
#include "util/error.h"

namespace dlbench::trace_summary {
namespace {

using test::TempDir;

// Rank 0's trace: a compute step with a read overlapping its second half, a small read, a write
// and a sample (`item`), and metadata. Times in µs, on 1 ms bins: the split is exact.
const char* const kEvents[] = {
    R"({"id":0,"name":"process_name","cat":"dftracer","pid":1,"tid":1,"ph":"M","args":{"name":"Rank 0","value":"process_name"}})",
    R"({"id":1,"name":"compute","cat":"compute","pid":1,"tid":1,"ts":1000000,"dur":500000,"ph":"X","args":{"epoch":1,"step":1}})",
    R"({"id":2,"name":"pread64","cat":"POSIX","pid":1,"tid":2,"ts":1250000.000,"dur":500000.000,"ph":"X","args":{"hhash":7,"fhash":3,"ret":1048576,"size":1048576,"offset":0}})",
    R"({"id":3,"name":"pread64","cat":"POSIX","pid":1,"tid":2,"ts":2000000,"dur":1000,"ph":"X","args":{"ret":4096,"size":8192,"offset":0}})",
    R"({"id":4,"name":"pwrite64","cat":"POSIX","pid":1,"tid":2,"ts":2500000,"dur":500000,"ph":"X","args":{"ret":2097152,"size":2097152,"offset":0}})",
    R"({"id":5,"name":"item","cat":"data","pid":1,"tid":2,"ts":900000,"dur":100000,"ph":"X","args":{"image_idx":1,"image_size":100,"step":1}})",
};

std::string Trace(bool closed = true) {
  std::string text = "[\n";
  for (const char* event : kEvents) text += std::string(event) + "\n";
  if (closed) text += "]\n";
  return text;
}

std::string GzipMember(const std::string& text) {
  z_stream s{};
  deflateInit2(&s, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&s, text.size()) + 32, '\0');
  s.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  s.avail_in = static_cast<uInt>(text.size());
  s.next_out = reinterpret_cast<Bytef*>(out.data());
  s.avail_out = static_cast<uInt>(out.size());
  deflate(&s, Z_FINISH);
  out.resize(s.total_out);
  deflateEnd(&s);
  return out;
}

// The trace as DFTracer-style gzip: one member per chunk of lines, the closing ']' its own.
std::string GzipTrace() {
  const std::string text = Trace(false);
  const std::size_t half = text.find('\n', text.size() / 2) + 1;
  return GzipMember(text.substr(0, half)) + GzipMember(text.substr(half)) + GzipMember("]\n");
}

void ExpectKnownNumbers(const TraceSummary& summary) {
  ASSERT_EQ(summary.ranks.size(), 1u);
  EXPECT_EQ(summary.events, 5u);  // complete events only
  const auto names = summary.names();
  ASSERT_EQ(names.count("pread64"), 1u);
  const NameStats& read = names.at("pread64");
  EXPECT_EQ(read.cat, "POSIX");
  EXPECT_EQ(read.count, 2u);
  EXPECT_NEAR(read.total_time, 0.501, 1e-9);
  EXPECT_EQ(read.sizes.min(), 4096);  // `ret`, not the asked `size`
  EXPECT_EQ(read.sizes.max(), 1048576);
  EXPECT_DOUBLE_EQ(read.sizes.mean(), (4096 + 1048576) / 2.0);
  EXPECT_NEAR(read.sizes.quantile(0.5), 4096, 4096 * 0.01);
  EXPECT_NEAR(read.sizes.quantile(0.25), 4096, 4096 * 0.01);
  EXPECT_NEAR(read.sizes.quantile(0.75), 1048576, 1048576 * 0.01);
  EXPECT_EQ(names.at("item").sizes.max(), 100);  // image_size
  EXPECT_EQ(names.at("compute").sizes.count(), 0u);
  EXPECT_EQ(names.count("process_name"), 0u);  // metadata are not events

  const TimeSplit split = summary.ranks.at(0).split;
  EXPECT_NEAR(split.wall, 2.1, 1e-9);  // 0.9 s to 3.0 s
  EXPECT_NEAR(split.compute, 0.5, 1e-6);
  EXPECT_NEAR(split.io, 1.001, 1e-6);
  EXPECT_NEAR(split.overlap, 0.25, 1e-6);  // 1.25 s to 1.5 s
  EXPECT_NEAR(split.other(), 2.1 - (0.5 + 1.001 - 0.25), 1e-6);

  const BandwidthBins bins = summary.bandwidth();
  ASSERT_EQ(bins.size(), 2u);
  EXPECT_DOUBLE_EQ(bins.at(1)[0], 1048576);
  EXPECT_DOUBLE_EQ(bins.at(1)[1], 0);
  EXPECT_DOUBLE_EQ(bins.at(2)[0], 4096);
  EXPECT_DOUBLE_EQ(bins.at(2)[1], 2097152);
}

TEST(TraceSummary, KnownPlainTraceGivesKnownNumbers) {
  TempDir dir;
  dir.write("trace-0-of-1.pfw", Trace());
  const TraceSummary summary = SummarizeRun(storage::PosixEnv(), dir.path());
  EXPECT_TRUE(summary.warnings.empty());
  ExpectKnownNumbers(summary);
}

TEST(TraceSummary, GzipMembersGiveTheSameNumbers) {
  TempDir dir;
  dir.write("trace-0-of-1.pfw.gz", GzipTrace());
  const TraceSummary summary = SummarizeRun(storage::PosixEnv(), dir.path());
  EXPECT_TRUE(summary.warnings.empty()) << summary.warnings.front();
  ExpectKnownNumbers(summary);
}

TEST(TraceSummary, RanksComeFromFileNamesAndAddUp) {
  TempDir dir;
  dir.write("trace-0-of-2.pfw", Trace());
  dir.write("trace-1-of-2.pfw.gz", GzipTrace());
  const TraceSummary summary = SummarizeRun(storage::PosixEnv(), dir.path());
  ASSERT_EQ(summary.ranks.size(), 2u);
  EXPECT_EQ(summary.events, 10u);
  EXPECT_EQ(summary.names().at("pread64").count, 4u);
  EXPECT_NEAR(summary.split().overlap, 0.5, 1e-6);
  EXPECT_DOUBLE_EQ(summary.bandwidth().at(2)[1], 2 * 2097152.0);
  const nlohmann::json json = nlohmann::json::parse(FormatJson(summary));
  EXPECT_EQ(json.at("events"), 10);
  EXPECT_EQ(json.at("events_by_name").at("per_rank").at("1").at("pwrite64").at("count"), 1);
  EXPECT_EQ(json.at("bandwidth").at("total").at("write_MiB_per_second"),
            nlohmann::json::array({0.0, 4.0}));
  EXPECT_NEAR(json.at("time_split").at("per_rank").at("0").at("io_seconds").get<double>(), 1.001,
              1e-6);
}

// --json had no byte total per event, and byte quantiles printed as the sketch's doubles (125.22):
// sizes are whole bytes.
TEST(TraceSummary, JsonHasByteTotalsAndWholeByteQuantiles) {
  TempDir dir;
  dir.write("trace-0-of-1.pfw", Trace());
  const nlohmann::json json =
      nlohmann::json::parse(FormatJson(SummarizeRun(storage::PosixEnv(), dir.path())));
  const nlohmann::json& names = json.at("events_by_name").at("total");
  EXPECT_EQ(names.at("pread64").at("total_bytes"), 4096 + 1048576);
  EXPECT_EQ(names.at("pread64").at("size_bytes").at("total"), 4096 + 1048576);
  EXPECT_EQ(names.at("pwrite64").at("total_bytes"), 2097152);
  EXPECT_EQ(names.at("item").at("total_bytes"), 100);
  EXPECT_EQ(names.at("compute").at("total_bytes"), 0);
  for (const char* key : {"min", "p25", "median", "p75", "max"}) {
    const nlohmann::json& value = names.at("pread64").at("size_bytes").at(key);
    EXPECT_TRUE(value.is_number_integer()) << key << " = " << value.dump();
  }
  // The sketch's estimate near 4,096 (within 1 %), rounded to the byte.
  EXPECT_NEAR(names.at("pread64").at("size_bytes").at("median").get<double>(), 4096, 41);
  EXPECT_DOUBLE_EQ(names.at("pread64").at("size_bytes").at("mean").get<double>(),
                   (4096 + 1048576) / 2.0);
}

// A rank beyond int in the file name is no rank (std::stoi threw out_of_range: exit 1, "internal
// error"); the trace is summarised like any other name, in listing order.
TEST(TraceSummary, RankTooLargeForAnIntIsNotARank) {
  TempDir dir;
  dir.write("trace-99999999999-of-1.pfw", Trace());
  const TraceSummary summary = SummarizeRun(storage::PosixEnv(), dir.path());
  ASSERT_EQ(summary.ranks.size(), 1u);
  EXPECT_EQ(summary.ranks.begin()->first, 0);
  ExpectKnownNumbers(summary);
}

TEST(TraceSummary, CutGzipMemberIsSummarisedWithAWarning) {
  TempDir dir;
  const std::string complete = GzipMember(Trace(false).substr(0, Trace(false).find(kEvents[3])));
  const std::string rest = GzipMember(Trace().substr(Trace(false).find(kEvents[3])));
  dir.write("trace-0-of-1.pfw.gz", complete + rest.substr(0, rest.size() / 2));
  const TraceSummary summary = SummarizeRun(storage::PosixEnv(), dir.path());
  ASSERT_EQ(summary.warnings.size(), 1u);
  EXPECT_NE(summary.warnings[0].find("incomplete"), std::string::npos);
  EXPECT_NE(summary.warnings[0].find("gzip member is cut"), std::string::npos);
  EXPECT_GE(summary.events, 2u);  // the compute and the first read are in the first member
  EXPECT_LE(summary.events, 5u);
}

TEST(TraceSummary, CutLastLineIsSummarisedWithAWarning) {
  TempDir dir;
  std::string text = Trace(false);
  text.resize(text.size() - 20);  // inside the last event
  dir.write("trace-0-of-1.pfw", text);
  const TraceSummary summary = SummarizeRun(storage::PosixEnv(), dir.path());
  ASSERT_EQ(summary.warnings.size(), 1u);
  EXPECT_NE(summary.warnings[0].find("last line is cut"), std::string::npos);
  EXPECT_EQ(summary.events, 4u);
}

TEST(TraceSummary, MissingClosingBracketIsAWarning) {
  TempDir dir;
  dir.write("trace-0-of-1.pfw", Trace(false));
  const TraceSummary summary = SummarizeRun(storage::PosixEnv(), dir.path());
  ASSERT_EQ(summary.warnings.size(), 1u);
  EXPECT_NE(summary.warnings[0].find("closing ']'"), std::string::npos);
  ExpectKnownNumbers(summary);
}

TEST(TraceSummary, GarbageIsAClearIoError) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"trace-0-of-1.pfw", "hello, world\n"},
      {"trace-0-of-1.pfw", "[\n{\"name\":\"x\",\"ph\":\"X\",\"ts\":1,\"dur\":\n{}\n]\n"},
      {"trace-0-of-1.pfw", "[\n{\"name\":\"x\",\"ph\":\"X\"}\n]\n"},  // no ts/dur
      {"trace-0-of-1.pfw", std::string("[\n\x01\x02\x03\xff\n]\n")},
      {"trace-0-of-1.pfw.gz", std::string("\x1f\x8b\x08\x00garbagegarbagegarbage", 25)},
      {"trace-0-of-1.pfw.gz", GzipTrace() + "trailing junk"},
  };
  for (const auto& [name, text] : cases) {
    TempDir dir;
    dir.write(name, text);
    test::ExpectError([&] { SummarizeRun(storage::PosixEnv(), dir.path()); }, ExitCode::kIo,
                      {"trace-0-of-1"});
  }
}

TEST(TraceSummary, FolderWithoutTracesOrCountersIsAnError) {
  TempDir dir;
  dir.write("summary.json", "{}");
  test::ExpectError([&] { SummarizeRun(storage::PosixEnv(), dir.path()); }, ExitCode::kIo,
                    {"holds no traces"});
  test::ExpectError([&] { SummarizeRun(storage::PosixEnv(), dir / "absent"); }, ExitCode::kUsage,
                    {"no such run folder"});
}

TEST(TraceSummary, CountersFilesBecomeTheCountersTable) {
  TempDir dir;
  // Rank 0's as dlbench writes it now, gzip'd in two members; rank 1's plain, as runs before did.
  const std::string rank0 =
      R"({"rank":0,"totals":{"POSIX_OPENS":3,"POSIX_BYTES_READ":100},"files":[]})"
      "\n";
  dir.write("0_posix_counters.json.gz",
            GzipMember(rank0.substr(0, 20)) + GzipMember(rank0.substr(20)));
  dir.write("1_posix_counters.json",
            R"({"rank":1,"totals":{"POSIX_OPENS":2,"POSIX_BYTES_READ":50},"files":[]})");
  const TraceSummary summary = SummarizeRun(storage::PosixEnv(), dir.path());
  EXPECT_FALSE(summary.has_traces);
  EXPECT_EQ(summary.ranks.size(), 2u);
  EXPECT_EQ(summary.counters().opens, 5u);
  EXPECT_EQ(summary.counters().bytes_read, 150u);
  const std::string text = FormatText(summary);
  EXPECT_NE(text.find("POSIX_OPENS"), std::string::npos);
  EXPECT_NE(text.find("No traces"), std::string::npos);
  dir.write("2_posix_counters.json", "{\"rank\":");
  test::ExpectError([&] { SummarizeRun(storage::PosixEnv(), dir.path()); }, ExitCode::kIo,
                    {"not a dlbench counters file"});
  // A rank that is not an int >= 0 was wrapped (1e12, -1) or truncated (1.5) into some rank.
  for (const std::string rank : {"1000000000000", "-1", "1.5"}) {
    dir.write("2_posix_counters.json", R"({"rank":)" + rank + R"(,"totals":{"POSIX_OPENS":1}})");
    test::ExpectError([&] { SummarizeRun(storage::PosixEnv(), dir.path()); }, ExitCode::kIo,
                      {"2_posix_counters.json: not a dlbench counters file (rank " + rank});
  }
}

// A counters file is one JSON line of up to ~7 MiB (the records of the 8 MiB budget): longer than
// the longest trace line the reader accepts, read whole all the same.
TEST(TraceSummary, CountersFileOfOneLongLineIsReadWhole) {
  const auto counters_text = [](int rank) {
    std::string text = R"({"rank":)" + std::to_string(rank) + R"(,"totals":{"POSIX_OPENS":)" +
                       std::to_string(7 + rank) + R"(},"files":[)";
    for (int i = 0; text.size() < (std::size_t{6} << 20); ++i) {
      if (i > 0) text += ',';
      text += R"({"file":"/data/train/img_)" + std::to_string(i) +
              R"(_of_100000.npy","rank":0,"counters":{"POSIX_OPENS":1,"POSIX_READS":2}})";
    }
    return text + "]}\n";
  };
  TempDir dir;
  dir.write("0_posix_counters.json.gz", GzipMember(counters_text(0)));
  dir.write("1_posix_counters.json", counters_text(1));  // plain, as runs before wrote it
  const TraceSummary summary = SummarizeRun(storage::PosixEnv(), dir.path());
  EXPECT_EQ(summary.ranks.at(0).counters.opens, 7u);
  EXPECT_EQ(summary.ranks.at(1).counters.opens, 8u);
}

// A plain file beside the .gz of the same name (gunzip -k) is the same rank's counters: read once.
TEST(TraceSummary, CountersFileInBothSpellingsIsReadOnce) {
  TempDir dir;
  const std::string text = R"({"rank":0,"totals":{"POSIX_OPENS":3},"files":[]})";
  dir.write("0_posix_counters.json.gz", GzipMember(text));
  dir.write("0_posix_counters.json", R"({"rank":0,"totals":{"POSIX_OPENS":1000},"files":[]})");
  EXPECT_EQ(ListRunFiles(storage::PosixEnv(), dir.path()).counters,
            std::vector<std::string>{"0_posix_counters.json.gz"});
  EXPECT_EQ(SummarizeRun(storage::PosixEnv(), dir.path()).counters().opens, 3u);
}

// A damaged .gz counters file is an I/O error naming it (exit 3), whatever the damage.
TEST(TraceSummary, DamagedGzipCountersFileIsAnErrorNamingIt) {
  const std::string gzip = GzipMember(R"({"rank":0,"totals":{"POSIX_OPENS":3},"files":[]})");
  const std::pair<std::string, std::string> cases[] = {
      {std::string("\x1f\x8b\x08\x00garbagegarbagegarbage", 25), "not valid gzip data"},
      {gzip.substr(0, gzip.size() / 2), "the last gzip member is cut"},
      {gzip + "trailing junk", "not valid gzip data"},
      {R"({"rank":0,"totals":{"POSIX_OPENS":3},"files":[]})", "not gzip data"},
      {"", "not gzip data"},
  };
  for (const auto& [bytes, why] : cases) {
    TempDir dir;
    dir.write("0_posix_counters.json.gz", bytes);
    test::ExpectError([&] { SummarizeRun(storage::PosixEnv(), dir.path()); }, ExitCode::kIo,
                      {"0_posix_counters.json.gz: ", why});
  }
}

}  // namespace
}  // namespace dlbench::trace_summary
