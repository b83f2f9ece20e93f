#include "util/sink.h"

#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "support/test_support.h"

namespace dlbench::sink {
namespace {

TEST(Sink, ResultsAreKeptAsGivenAndMessagesGetTheirPrefix) {
  CapturingSink capture;
  const ScopedSink scope(capture);
  Result("table\n");
  Result("line\n");
  Note("a note");
  Warning("a warning");
  Error("an error");
  Error("a rank's error", "rank 1 of 4");
  EXPECT_EQ(capture.results(), "table\nline\n");
  EXPECT_EQ(capture.messages(),
            (std::vector<std::string>{"dlbench: note: a note", "dlbench: warning: a warning",
                                      "dlbench: error: an error",
                                      "dlbench: error (rank 1 of 4): a rank's error"}));
}

TEST(Sink, ScopedSinksNestAndRestoreTheOuterOne) {
  CapturingSink outer, inner;
  const ScopedSink outer_scope(outer);
  {
    const ScopedSink inner_scope(inner);
    Note("inner");
  }
  Note("outer");
  EXPECT_EQ(inner.messages(), std::vector<std::string>{"dlbench: note: inner"});
  EXPECT_EQ(outer.messages(), std::vector<std::string>{"dlbench: note: outer"});
}

TEST(Sink, RaisedWarningsWaitUntilTakenAndPrintNothingMeanwhile) {
  CapturingSink capture;
  const ScopedSink scope(capture);
  RaiseWarning("sink test: first");
  RaiseWarning("sink test: second");
  EXPECT_TRUE(capture.messages().empty());
  EXPECT_EQ(TakeRaisedWarnings(),
            (std::vector<std::string>{"sink test: first", "sink test: second"}));
  EXPECT_TRUE(TakeRaisedWarnings().empty());
}

TEST(Sink, AWarningRaisedByManyThreadsIsKeptOncePerProcess) {
  std::vector<std::thread> threads;
  for (int i = 0; i < 8; ++i) {
    threads.emplace_back([] {
      for (int j = 0; j < 100; ++j) RaiseWarning("sink test: every reader thread");
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(TakeRaisedWarnings(), std::vector<std::string>{"sink test: every reader thread"});
  // Raised again later in the process (another phase): already reported, dropped.
  RaiseWarning("sink test: every reader thread");
  EXPECT_TRUE(TakeRaisedWarnings().empty());
}

std::string ReadAll(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// "[LEVEL] 2026-11-23T16:40:01.390131 " at the start of a log entry.
const std::regex kEntry(
    R"(\[(OUTPUT|INFO|WARNING|ERROR)\] \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6} )");

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The entry's line without its timestamp: "[LEVEL] text".
std::string WithoutTime(const std::string& line) {
  std::smatch match;
  if (!std::regex_search(line, match, kEntry) || match.position(0) != 0) return "no entry: " + line;
  return "[" + match[1].str() + "] " + line.substr(static_cast<std::size_t>(match.length(0)));
}

TEST(SinkLog, EverythingSaidWhileOpenIsLoggedInDliosLineFormat) {
  const test::TempDir dir;
  CapturingSink capture;
  const ScopedSink scope(capture);
  ASSERT_TRUE(OpenLog((dir / "dlio.log").string()));
  Result("table line 1\ntable line 2\n\n  indented row\n");
  Note("a note");
  Warning("a warning");
  Error("the end");
  Error("rank 0's end", "rank 0 of 2");
  Log("OUTPUT", "Averaged metric over all steps/epochs\n[METRIC] ====\n");
  CloseLog();
  Note("after the log was closed");
  const std::vector<std::string> lines = Lines(ReadAll(dir / "dlio.log"));
  ASSERT_EQ(lines.size(), 10u) << ReadAll(dir / "dlio.log");
  // Every line of a multi-line entry has its level and time (the rows after the first were
  // written bare), blank and indented ones too.
  EXPECT_EQ(WithoutTime(lines[0]), "[OUTPUT] table line 1");
  EXPECT_EQ(WithoutTime(lines[1]), "[OUTPUT] table line 2");
  EXPECT_EQ(WithoutTime(lines[2]), "[OUTPUT] ");
  EXPECT_EQ(WithoutTime(lines[3]), "[OUTPUT]   indented row");
  EXPECT_EQ(lines[0].substr(0, 36), lines[3].substr(0, 36));  // one entry, one time
  EXPECT_EQ(WithoutTime(lines[4]), "[INFO] a note");
  EXPECT_EQ(WithoutTime(lines[5]), "[WARNING] a warning");
  EXPECT_EQ(WithoutTime(lines[6]), "[ERROR] the end");
  EXPECT_EQ(WithoutTime(lines[7]), "[ERROR] rank 0 of 2: rank 0's end");
  // DLIO's end block: one OUTPUT entry whose lines after the first carry DLIO's [METRIC] tag.
  EXPECT_EQ(WithoutTime(lines[8]), "[OUTPUT] Averaged metric over all steps/epochs");
  EXPECT_EQ(lines[9], "[METRIC] ====");
  // The terminal got the same, and the log entry only its log.
  EXPECT_EQ(capture.results(), "table line 1\ntable line 2\n\n  indented row\n");
  EXPECT_EQ(capture.messages().size(), 5u);
}

TEST(SinkLog, OpeningReplacesAnEarlierLogAsDlioDoes) {
  const test::TempDir dir;
  const std::filesystem::path path = dir.write("dlio.log", "an earlier run's log\n");
  ASSERT_TRUE(OpenLog(path.string()));
  Log("INFO", "this run");
  CloseLog();
  const std::vector<std::string> lines = Lines(ReadAll(path));
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(WithoutTime(lines[0]), "[INFO] this run");
}

TEST(SinkLog, ALogThatCannotBeOpenedIsAWarningNotAnError) {
  const test::TempDir dir;
  CapturingSink capture;
  const ScopedSink scope(capture);
  EXPECT_FALSE(OpenLog((dir / "missing-folder" / "dlio.log").string()));
  Note("the run goes on");
  ASSERT_EQ(capture.messages().size(), 2u);
  EXPECT_NE(capture.messages()[0].find("dlbench: warning: cannot open the log"), std::string::npos)
      << capture.messages()[0];
  EXPECT_NE(capture.messages()[0].find("missing-folder"), std::string::npos);
}

TEST(SinkLog, AFailingWriteClosesTheLogWithOneWarning) {
  if (!std::filesystem::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  CapturingSink capture;
  const ScopedSink scope(capture);
  ASSERT_TRUE(OpenLog("/dev/full"));
  Note("first");
  Note("second");
  CloseLog();
  ASSERT_EQ(capture.messages().size(), 3u);
  EXPECT_EQ(capture.messages()[1],
            "dlbench: warning: cannot write the log /dev/full: No space left on device; the run "
            "goes on without it");
  EXPECT_EQ(capture.messages()[2], "dlbench: note: second");
}

TEST(SinkLog, TheErrorThatEndsARunStillReachesItsLog) {
  const test::TempDir dir;
  const std::filesystem::path path = dir / "dlio.log";
  CapturingSink capture;
  const ScopedSink scope(capture);
  try {
    const RunLog log(path.string());
    Log("INFO", "started");
    throw std::runtime_error("the run fails");
  } catch (const std::runtime_error&) {
    Error("the run fails");  // as app::RunGuarded reports it, after unwinding
  }
  {
    const RunLog next((dir / "next.log").string());  // the next run's log closes the old one
    Log("INFO", "next run");
  }
  Note("after both runs");
  const std::vector<std::string> lines = Lines(ReadAll(path));
  ASSERT_EQ(lines.size(), 2u) << ReadAll(path);
  EXPECT_EQ(WithoutTime(lines[1]), "[ERROR] the run fails");
  ASSERT_EQ(Lines(ReadAll(dir / "next.log")).size(), 1u);  // closed when the run ended normally
}

}  // namespace
}  // namespace dlbench::sink
