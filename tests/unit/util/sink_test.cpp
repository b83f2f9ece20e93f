#include "util/sink.h"

#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

namespace dlbench::sink {
namespace {

TEST(Sink, ResultsAreKeptAsGivenAndMessagesGetTheirPrefix) {
  CapturingSink capture;
  const ScopedSink scope(capture);
  Result("table\n");
  Result("line\n");
  Note("a note");
  Warning("a warning");
  Message("dlbench: error: as formatted");
  EXPECT_EQ(capture.results(), "table\nline\n");
  EXPECT_EQ(capture.messages(),
            (std::vector<std::string>{"dlbench: note: a note", "dlbench: warning: a warning",
                                      "dlbench: error: as formatted"}));
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

}  // namespace
}  // namespace dlbench::sink
