// Paths and thread names reach the trace as JSON strings escaped as nlohmann::json dumps them
// (util/json_string.h): quotes, backslashes, \b \f \n \r \t and every other control byte; the
// lines still parse, and `dlbench trace summary` (trace_summary.h) reads the trace.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "storage/file.h"
#include "support/test_support.h"
#include "trace/record.h"
#include "trace/recorder.h"
#include "trace_lines.h"
#include "trace_summary/trace_summary.h"

namespace dlbench::trace {
namespace {

const std::string kPath = "/data/a\"b\\c\bd\fe\nf\rg\th\x01i\x1fj\x7fk";
const std::string kThread = "reader\r\b\f\x02";

void WriteTrace(const std::filesystem::path& path, bool compress) {
  RecorderOptions options = test::TestRecorderOptions(path);
  options.compress = compress;
  Recorder recorder(options);
  NameThread(kThread);
  Record(Event::kOpen, 1000, 2000, {}, HashPath(kPath), kPath);
  Record(Event::kRead, 3000, 4000, {}, HashPath(kPath));
  recorder.finish();
}

TEST(EscapedNames, ControlCharactersAreEscapedAsTheJsonLibraryDumpsThem) {
  test::TempDir dir;
  WriteTrace(dir / "t.pfw", /*compress=*/false);
  const std::string text = test::ReadBytes(dir / "t.pfw");
  EXPECT_NE(text.find(nlohmann::json(kPath).dump()), std::string::npos) << text;
  EXPECT_NE(text.find(nlohmann::json(kThread).dump()), std::string::npos) << text;
  EXPECT_NE(text.find(R"(\b)"), std::string::npos) << text;  // not \u0008
  EXPECT_EQ(text.find(R"(\u0008)"), std::string::npos) << text;
  EXPECT_EQ(text.find(R"(\u000d)"), std::string::npos) << text;
  EXPECT_EQ(text.find(R"(\u000c)"), std::string::npos) << text;

  const auto trace = test::ReadTrace(dir / "t.pfw", /*compressed=*/false);
  bool path_named = false, thread_named = false;
  for (const auto& e : trace.events) {
    if (e["name"] == "FH") path_named = path_named || e["args"]["name"] == kPath;
    if (e["name"] == "thread_name") thread_named = thread_named || e["args"]["name"] == kThread;
  }
  EXPECT_TRUE(path_named);
  EXPECT_TRUE(thread_named);
}

TEST(EscapedNames, TheTraceSummaryReadsTheTrace) {
  test::TempDir dir;
  WriteTrace(dir / "trace-1-of-2.pfw.gz", /*compress=*/true);
  const trace_summary::TraceSummary summary =
      trace_summary::SummarizeRun(storage::PosixEnv(), dir.path());
  EXPECT_TRUE(summary.warnings.empty());
  EXPECT_EQ(summary.events, 4u);  // start, open64, pread64, end
  ASSERT_EQ(summary.ranks.count(1), 1u);
  EXPECT_EQ(summary.ranks.at(1).names.count("open64"), 1u);
  EXPECT_EQ(summary.ranks.at(1).names.count("pread64"), 1u);
}

}  // namespace
}  // namespace dlbench::trace
