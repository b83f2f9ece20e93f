// RunTrace (workflow/run_trace.h): a run whose trace drops events (profiling.trace_policy: drop,
// the smallest buffer, a burst far faster than the writer's 10 ms polls) says so on rank 0 and
// counts them in summary.json's trace.dropped_events; trace.event_totals sums the events per name.
#include "workflow/run_trace.h"

#include <gtest/gtest.h>

#include <string>

#include "support/test_support.h"
#include "trace/record.h"
#include "trace/thread_buffer.h"
#include "util/sink.h"

namespace dlbench::workflow {
namespace {

TEST(RunTrace, DroppedEventsAreCountedAndWarnedAbout) {
  test::TempDir dir;
  config::Config config;
  config.workflow.profiling = true;
  config.profiling.trace_policy = config::TracePolicy::kDrop;
  config.profiling.trace_buffer_events = static_cast<std::int64_t>(trace::kMinBufferEvents);
  sink::CapturingSink capture;
  const sink::ScopedSink scoped(capture);
  const mpi::Communicator world = test::World();
  RunTrace run_trace(config, dir.path(), storage::PosixEnv(), world);
  // 64 × the buffer in one burst: the writer, which only polls (kDrop wakes nobody), takes at
  // most a buffer per pass.
  constexpr std::uint64_t kEvents = 64 * trace::kMinBufferEvents;
  for (std::uint64_t k = 0; k < kEvents; ++k) {
    const auto at = static_cast<std::int64_t>(k) * 1000;
    trace::Record(trace::Event::kCompute, at, at + 500, {1, static_cast<std::int64_t>(k)});
  }
  const metrics::Json json = run_trace.finish();
  const std::uint64_t dropped = json["trace"]["dropped_events"];
  const std::uint64_t events = json["trace"]["events"];
  EXPECT_GT(dropped, 0u);
  EXPECT_EQ(events + dropped, kEvents);
  EXPECT_EQ(json["trace"]["policy"], "drop");
  const std::string expected =
      "dlbench: warning: the trace dropped " + std::to_string(dropped) +
      " event(s): its writer (profiling.trace_writer_priority: idle) fell behind "
      "(profiling.trace_policy: drop); summary.json trace.dropped_events";
  ASSERT_EQ(capture.messages().size(), 1u);
  EXPECT_EQ(capture.messages()[0], expected);
}

TEST(RunTrace, NoWarningWhenNothingWasDropped) {
  test::TempDir dir;
  config::Config config;
  config.workflow.profiling = true;
  sink::CapturingSink capture;
  const sink::ScopedSink scoped(capture);
  const mpi::Communicator world = test::World();
  RunTrace run_trace(config, dir.path(), storage::PosixEnv(), world);
  trace::Record(trace::Event::kCompute, 1000, 1500, {1, 1});
  const metrics::Json json = run_trace.finish();
  EXPECT_EQ(json["trace"]["dropped_events"], 0u);
  EXPECT_EQ(json["trace"]["events"], 1u);
  EXPECT_TRUE(capture.messages().empty());
}

TEST(RunTrace, EventTotalsPerNameMergeTheKindsThatShareOne) {
  test::TempDir dir;
  config::Config config;
  config.workflow.profiling = true;
  const mpi::Communicator world = test::World();
  RunTrace run_trace(config, dir.path(), storage::PosixEnv(), world);
  trace::Record(trace::Event::kItem, 1000, 3001000, {0, 4096, 0});  // 3 ms
  trace::Record(trace::Event::kOpen, 1000, 2000, {});               // open64 for reading
  trace::Record(trace::Event::kOpenWrite, 5000, 7000, {});          // open64 for writing
  const metrics::Json totals = run_trace.finish()["trace"]["event_totals"];
  EXPECT_EQ(totals["item"]["count"], 1u);
  EXPECT_DOUBLE_EQ(totals["item"]["seconds"].get<double>(), 0.003);
  EXPECT_EQ(totals["open64"]["count"], 2u);
  EXPECT_DOUBLE_EQ(totals["open64"]["seconds"].get<double>(), 3e-6);
  EXPECT_FALSE(totals.contains("compute"));  // names no event had are left out
}

}  // namespace
}  // namespace dlbench::workflow
