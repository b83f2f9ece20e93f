// How a failure reaches the user (app/error_reporting.h): one "dlbench: error: ..." line through
// the sink, the error's exit code, the job's pending warnings first, and the same line as ERROR in
// the run's log. One rank here (Communicator::Local()); tests/mpi and tests/cli run the
// several-rank cases (printed once, the other ranks ended).
#include "app/error_reporting.h"

#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <new>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "support/test_support.h"
#include "util/error.h"
#include "util/sink.h"

namespace dlbench::app {
namespace {

struct Reported {
  int code = -1;
  std::vector<std::string> messages;
};

Reported Report(const std::function<int()>& body) {
  sink::CapturingSink capture;
  const sink::ScopedSink scope(capture);
  Reported reported;
  reported.code = RunGuarded(mpi::Communicator::Local(), body);
  reported.messages = capture.messages();
  return reported;
}

TEST(RunGuarded, ReturnsTheBodysCodeAndSaysNothing) {
  const Reported reported = Report([] { return 0; });
  EXPECT_EQ(reported.code, 0);
  EXPECT_TRUE(reported.messages.empty());
}

TEST(RunGuarded, AnErrorIsOneLineWithItsExitCode) {
  const Reported usage = Report([]() -> int { throw UsageError("reader.batch_size: bad"); });
  EXPECT_EQ(usage.code, 2);
  EXPECT_EQ(usage.messages, std::vector<std::string>{"dlbench: error: reader.batch_size: bad"});

  const Reported io = Report([]() -> int { throw IoError("read", "/x", 5); });
  EXPECT_EQ(io.code, 3);
  ASSERT_EQ(io.messages.size(), 1u);
  EXPECT_EQ(io.messages[0].rfind("dlbench: error: read /x: ", 0), 0u) << io.messages[0];

  const Reported internal = Report([]() -> int { throw InternalError("impossible state"); });
  EXPECT_EQ(internal.code, 1);
  EXPECT_EQ(internal.messages, std::vector<std::string>{"dlbench: error: impossible state"});
}

TEST(RunGuarded, ACollectiveErrorIsSaidOnceByRankZero) {
  const Reported reported = Report([]() -> int { throw UsageError("agreed").mark_collective(); });
  EXPECT_EQ(reported.code, 2);
  EXPECT_EQ(reported.messages, std::vector<std::string>{"dlbench: error: agreed"});
}

TEST(RunGuarded, AnythingElseIsAnInternalErrorAskingForAReport) {
  const Reported other = Report([]() -> int { throw std::logic_error("vector::at"); });
  EXPECT_EQ(other.code, 1);
  EXPECT_EQ(other.messages,
            std::vector<std::string>{"dlbench: error: internal error: vector::at (this is a bug "
                                     "in dlbench; please report it)"});
  const Reported memory = Report([]() -> int { throw std::bad_alloc(); });
  EXPECT_EQ(memory.code, 1);
  EXPECT_EQ(memory.messages, std::vector<std::string>{"dlbench: error: out of memory"});
}

TEST(RunGuarded, PendingWarningsComeBeforeTheError) {
  const Reported reported = Report([]() -> int {
    sink::RaiseWarning("error reporting test: a warning raised before failing");
    throw UsageError("then the failure");
  });
  EXPECT_EQ(reported.messages,
            (std::vector<std::string>{
                "dlbench: warning: error reporting test: a warning raised before failing",
                "dlbench: error: then the failure"}));
}

TEST(RunGuarded, TheErrorReachesTheRunsLogAsAnErrorEntry) {
  const test::TempDir dir;
  const std::string path = (dir / "dlio.log").string();
  const Reported reported = Report([&]() -> int {
    const sink::RunLog log(path);  // as workflow::Run holds it while the phases run
    throw UsageError("no dataset at /d");
  });
  sink::CloseLog();
  EXPECT_EQ(reported.code, 2);
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_NE(text.str().find("[ERROR] "), std::string::npos) << text.str();
  EXPECT_NE(text.str().find(" no dataset at /d\n"), std::string::npos) << text.str();
  EXPECT_EQ(text.str().find("dlbench: error"), std::string::npos)
      << "the log holds the level, not the terminal's prefix: " << text.str();
}

TEST(PrintError, NamesTheRankOnlyInAJobOfSeveral) {
  sink::CapturingSink capture;
  const sink::ScopedSink scope(capture);
  PrintError(mpi::Communicator::Local(), "alone");
  EXPECT_EQ(capture.messages(), std::vector<std::string>{"dlbench: error: alone"});
}

}  // namespace
}  // namespace dlbench::app
