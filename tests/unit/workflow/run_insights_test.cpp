// The run's insights at its end: rank 0 reads them from the summary it holds, adds the settings
// summary.json does not say (reader.read_threads, the burst buffer's slots), writes `insights` and
// prints the warnings, or nothing with --quiet.
#include "workflow/run_insights.h"

#include <gtest/gtest.h>

#include "support/test_support.h"
#include "util/sink.h"
#include "workflow/run_info.h"

namespace dlbench::workflow {
namespace {

// Two epochs read from a page cache that holds the data, with load waits costing 40 AU points.
metrics::Json StorageBoundRun() {
  return {{"num_accelerators", 1},
          {"potential_caching", {1}},
          {"metric",
           {{"train_au_percentage", {60.0, 60.0}},
            {"train_au_loss_load_percentage", {40.0, 40.0}},
            {"train_first_batch_wait_seconds", {0.1, 0.1}},
            {"train_load_wait_seconds", {1.0, 1.0}},
            {"train_read_seconds", 5.0}}}};
}

TEST(RunInsights, AreWrittenToTheSummaryAndTheWarningsPrinted) {
  test::TempDir dir;
  const mpi::Communicator world = test::World();
  RunResults results(dir.path(), world);
  results.add(StorageBoundRun());
  sink::CapturingSink capture;
  {
    const sink::ScopedSink scoped(capture);
    AddRunInsights(config::Config{}, results, /*quiet=*/false, world);
  }
  const metrics::Json& insights = results.summary().at("insights");
  ASSERT_EQ(insights.size(), 2U);
  EXPECT_EQ(insights[0].at("id"), "storage_bound");
  EXPECT_EQ(insights[0].at("severity"), "high");
  EXPECT_EQ(insights[1].at("id"), "page_cache_served");
  EXPECT_NE(capture.results().find("  [high] storage_bound: "), std::string::npos);
  // Information is in the summary only.
  EXPECT_EQ(capture.results().find("page_cache_served"), std::string::npos);
}

TEST(RunInsights, DroppingThePageCacheIsTakenFromTheSummaryAndQuietPrintsNothing) {
  test::TempDir dir;
  const mpi::Communicator world = test::World();
  RunResults results(dir.path(), world);
  results.add(StorageBoundRun());
  config::Config config;
  config.reader.drop_caches = config::DropCaches::kFadvise;
  results.add(PageCacheSettings(config));  // as the run adds it before its phases
  sink::CapturingSink capture;
  {
    const sink::ScopedSink scoped(capture);
    AddRunInsights(config, results, /*quiet=*/true, world);
  }
  const metrics::Json& insights = results.summary().at("insights");
  ASSERT_EQ(insights.size(), 1U);
  EXPECT_EQ(insights[0].at("id"), "storage_bound");
  EXPECT_EQ(capture.results(), "");
}

TEST(RunInsights, AHealthyRunGetsAnEmptyList) {
  test::TempDir dir;
  const mpi::Communicator world = test::World();
  RunResults results(dir.path(), world);
  sink::CapturingSink capture;
  const sink::ScopedSink scoped(capture);
  AddRunInsights(config::Config{}, results, /*quiet=*/false, world);
  EXPECT_EQ(results.summary().at("insights"), metrics::Json::array());
  EXPECT_EQ(capture.results(), "");
}

}  // namespace
}  // namespace dlbench::workflow
