// The table of rules, summary.json's `insights`, the terminal lines and the changes between runs;
// the facts read from a summary.json (facts_from_summary.h).
#include "insights/insights.h"

#include <gtest/gtest.h>

#include "insights/facts_from_summary.h"
#include "insights/thresholds.h"

namespace dlbench::insights {
namespace {

using metrics::Json;

// A healthy summary: AU near 100 %, few load waits, large reads, two balanced ranks.
Json HealthySummary() {
  Json summary;
  summary["num_accelerators"] = 2;
  summary["potential_caching"] = {0};
  summary["metric"] = {{"train_au_percentage", {97.0, 98.0}},
                       {"train_au_loss_load_percentage", {1.0, 0.5}},
                       {"train_first_batch_wait_seconds", {0.01, 0.01}},
                       {"train_load_wait_seconds", {0.02, 0.02}},
                       {"train_read_seconds", 4.0}};
  summary["posix_counters"] = {{"totals",
                                {{"POSIX_READS", 1000},
                                 {"POSIX_BYTES_READ", 1000.0 * 1048576},
                                 {"POSIX_SIZE_READ_100K_1M", 1000},
                                 {"POSIX_F_READ_TIME", 1.0},
                                 {"POSIX_F_META_TIME", 0.01}}},
                               {"read_time_per_rank_seconds", {0.5, 0.5}},
                               {"top_files", Json::array()}};
  return summary;
}

TEST(Evaluate, AHealthyRunHasNoFinding) {
  EXPECT_TRUE(Evaluate(FactsFromSummary(HealthySummary())).empty());
  EXPECT_TRUE(Evaluate(RunFacts{}).empty());
}

TEST(FactsFromSummary, ReadsWhatTheRulesNeed) {
  Json summary = HealthySummary();
  summary["posix_counters"]["totals"]["POSIX_SIZE_READ_0_100"] = 7;
  summary["posix_counters"]["totals"]["POSIX_SIZE_READ_10K_100K"] = 3;
  summary["posix_counters"]["top_files"] = {
      {{"file", "/d/shared.h5"},
       {"rank", -1},
       {"counters",
        {{"POSIX_READS", 10}, {"POSIX_SIZE_READ_1K_10K", 10}, {"POSIX_BYTES_READ", 80}}}},
      {{"file", "/d/own.h5"}, {"rank", 1}, {"counters", {{"POSIX_READS", 10}}}}};
  summary["stage"] = Json::object();
  summary["metric"]["checkpoint_drained_bytes"] = 10;
  summary["metric"]["save_checkpoint_duration_max_seconds"] = {1.0, 2.0, 3.0};
  const RunFacts facts = FactsFromSummary(summary);
  EXPECT_EQ(facts.ranks, 2);
  ASSERT_EQ(facts.train_load_seconds.size(), 2U);
  EXPECT_DOUBLE_EQ(facts.train_load_seconds[1], 0.02);  // the first batch's wait is not in it
  EXPECT_EQ(facts.reads, 1000U);
  EXPECT_EQ(facts.small_reads, 10U);
  EXPECT_DOUBLE_EQ(facts.meta_time_seconds, 0.01);
  EXPECT_EQ(facts.read_time_per_rank_seconds, (std::vector<double>{0.5, 0.5}));
  ASSERT_EQ(facts.shared_files.size(), 1U);
  EXPECT_EQ(facts.shared_files[0].path, "/d/shared.h5");
  EXPECT_EQ(facts.shared_files[0].small_accesses, 10U);
  EXPECT_DOUBLE_EQ(facts.shared_files[0].bytes, 80);
  EXPECT_TRUE(facts.staged);
  EXPECT_TRUE(facts.drained);
  EXPECT_EQ(facts.saves, 3U);
  EXPECT_FALSE(facts.page_cache_possible);
  EXPECT_FALSE(facts.object_storage);
  EXPECT_FALSE(facts.object_store);
  summary["storage_type"] = "s3";
  summary["object_storage"]["total"] = {
      {"requests", 200}, {"retries", 3}, {"request_seconds", 1.5}, {"first_byte_seconds", 1.0}};
  const RunFacts s3 = FactsFromSummary(summary);
  EXPECT_TRUE(s3.object_storage);
  ASSERT_TRUE(s3.object_store);
  EXPECT_EQ(s3.object_store->requests, 200U);
  EXPECT_EQ(s3.object_store->retries, 3U);
  EXPECT_DOUBLE_EQ(s3.object_store->request_seconds, 1.5);
  EXPECT_FALSE(s3.trace);
  summary["trace"] = {{"sample", 4},
                      {"event_totals",
                       {{"item", {{"count", 8}, {"seconds", 2.5}}},
                        {"preprocess", {{"count", 8}, {"seconds", 2.0}}}}}};
  const RunFacts traced = FactsFromSummary(summary);
  ASSERT_TRUE(traced.trace);
  EXPECT_DOUBLE_EQ(traced.trace->item_seconds, 2.5);
  EXPECT_DOUBLE_EQ(traced.trace->preprocess_seconds, 2.0);
  EXPECT_EQ(traced.trace->sample, 4U);
  EXPECT_FALSE(traced.read_threads);  // summary.json does not hold it: the run sets it
  EXPECT_DOUBLE_EQ(s3.object_store->first_byte_seconds, 1.0);
}

TEST(FactsFromSummary, FieldsOfTheWrongTypeLeaveTheirFactUnmeasured) {
  Json summary = HealthySummary();
  summary["metric"]["train_au_loss_load_percentage"] = {1.0, "x"};
  summary["metric"]["train_read_seconds"] = "4";
  summary["posix_counters"]["totals"] = 3;
  summary["posix_counters"]["top_files"] = {1, {{"rank", -1}}};
  const RunFacts facts = FactsFromSummary(summary);
  EXPECT_TRUE(facts.train_load_loss_points.empty());
  EXPECT_FALSE(facts.train_read_seconds);
  EXPECT_FALSE(facts.reads);
  EXPECT_TRUE(facts.shared_files.empty());
  EXPECT_TRUE(Evaluate(FactsFromSummary(Json::array())).empty());
}

TEST(Insights, RoundTripThroughSummaryJson) {
  Json summary = HealthySummary();
  summary["metric"]["train_au_loss_load_percentage"] = {40.0, 40.0};
  summary["posix_counters"]["read_time_per_rank_seconds"] = {0.5, 2.0};
  const std::vector<Finding> findings = Evaluate(FactsFromSummary(summary));
  ASSERT_EQ(findings.size(), 2U);
  EXPECT_EQ(findings[0].id, "storage_bound");
  EXPECT_EQ(findings[0].severity, Severity::kHigh);
  EXPECT_EQ(findings[1].id, "rank_imbalance");
  const Json part = InsightsPart(findings);
  const Json& first = part.at("insights").at(0);
  EXPECT_EQ(first.at("id"), "storage_bound");
  EXPECT_EQ(first.at("severity"), "high");
  EXPECT_EQ(first.at("evidence").at(0).at("unit"), "AU points");
  EXPECT_EQ(first.at("evidence").at(0).at("threshold"), kStorageBoundPoints);
  EXPECT_EQ(first.at("evidence").at(0).at("comparison"), ">=");
  // Read back: what is stored wins over what the fields would give now.
  Json stored = HealthySummary();
  stored["insights"] = part.at("insights");
  const std::vector<Finding> back = FindingsOf(stored);
  ASSERT_EQ(back.size(), 2U);
  EXPECT_EQ(back[1].message, findings[1].message);
  EXPECT_EQ(back[1].evidence.size(), findings[1].evidence.size());
  // Without `insights` (an older summary), the fields give them.
  EXPECT_EQ(FindingsOf(summary).size(), 2U);
  // Items that are not findings are skipped.
  stored["insights"] = {1, {{"id", "x"}, {"severity", "bad"}}};
  EXPECT_TRUE(FindingsOf(stored).empty());
}

Finding Made(const std::string& id, Severity severity) {
  Finding f;
  f.id = id;
  f.severity = severity;
  f.message = id + " message.";
  f.suggestion = "try this.";
  return f;
}

TEST(TerminalLines, ShowWarningsAndAboveWithTheirSuggestion) {
  EXPECT_EQ(TerminalLines({}), "");
  EXPECT_EQ(TerminalLines({Made("page_cache_served", Severity::kInfo)}), "");
  const std::string text = TerminalLines(
      {Made("storage_bound", Severity::kHigh), Made("page_cache_served", Severity::kInfo)});
  EXPECT_EQ(text,
            "Insights (evidence and thresholds: summary.json insights, docs/insights.md):\n"
            "  [high] storage_bound: storage_bound message.\n"
            "    try: try this.\n");
}

TEST(Differences, SayWhatAppearedDisappearedOrChangedSeverity) {
  const std::vector<Finding> before = {Made("small_reads", Severity::kInfo),
                                       Made("rank_imbalance", Severity::kWarning),
                                       Made("eval_dominates", Severity::kWarning)};
  const std::vector<Finding> after = {Made("storage_bound", Severity::kWarning),
                                      Made("rank_imbalance", Severity::kHigh),
                                      Made("eval_dominates", Severity::kWarning)};
  EXPECT_EQ(Differences(before, after),
            (std::vector<std::string>{"storage_bound appeared (warning)",
                                      "rank_imbalance went from warning to high",
                                      "small_reads disappeared"}));
  EXPECT_TRUE(Differences(after, after).empty());
  EXPECT_EQ(DifferencesLine(before, after, "baseline", "current"),
            "Insights that differ (current against baseline): storage_bound appeared (warning); "
            "rank_imbalance went from warning to high; small_reads disappeared\n");
  EXPECT_EQ(DifferencesLine(after, after, "a", "b"), "");
}

TEST(SetFindings, AddTheFindingsAcrossRunsToEachRunsOwn) {
  Json cold = HealthySummary();
  cold["posix_counters"]["totals"]["POSIX_F_READ_TIME"] = 2.0;
  const Json warm = HealthySummary();  // 1 s of reads for the same bytes
  const std::vector<Finding> findings = SetFindings({cold, warm, warm});
  ASSERT_EQ(findings.size(), 1U);
  EXPECT_EQ(findings[0].id, "page_cache_served");
  EXPECT_EQ(findings[0].severity, Severity::kWarning);
  // In the other order the set shows nothing; a run's own findings are kept.
  EXPECT_TRUE(SetFindings({warm, warm, cold}).empty());
  Json imbalanced = HealthySummary();
  imbalanced["posix_counters"]["read_time_per_rank_seconds"] = {0.2, 0.8};
  ASSERT_EQ(SetFindings({warm, imbalanced}).size(), 1U);
  EXPECT_EQ(SetFindings({warm, imbalanced})[0].id, "rank_imbalance");
  EXPECT_TRUE(EvaluateSet({FactsFromSummary(warm)}).empty());
}

TEST(SetFindings, ASetThatKeptTheCacheOutReadTheStorageEveryRun) {
  // The same read times as above, but every run dropped the cache or read with O_DIRECT: a slower
  // run 1 is then the storage's own variation (a disk shared with a writer took 2.9 s against
  // 1.1 s), not the page cache, and summary.json's page_cache says so.
  for (const Json& settings : {Json{{"drop_caches", "fadvise"}, {"odirect", false}},
                               Json{{"drop_caches", "none"}, {"odirect", true}}}) {
    Json cold = HealthySummary();
    cold["posix_counters"]["totals"]["POSIX_F_READ_TIME"] = 2.0;
    cold["page_cache"] = settings;
    Json warm = HealthySummary();
    warm["page_cache"] = settings;
    EXPECT_TRUE(FactsFromSummary(cold).cache_bypassed);
    EXPECT_TRUE(SetFindings({cold, warm, warm}).empty()) << settings.dump();
  }
  Json kept = HealthySummary();
  kept["page_cache"] = {{"drop_caches", "none"}, {"odirect", false}};
  EXPECT_FALSE(FactsFromSummary(kept).cache_bypassed);
}

TEST(MergedFindings, KeepEachIdOnceAtItsHighestSeverity) {
  const std::vector<Finding> merged = MergedFindings(
      {{Made("rank_imbalance", Severity::kWarning)},
       {Made("storage_bound", Severity::kWarning), Made("rank_imbalance", Severity::kHigh)},
       {}});
  ASSERT_EQ(merged.size(), 2U);
  EXPECT_EQ(merged[0].id, "rank_imbalance");
  EXPECT_EQ(merged[0].severity, Severity::kHigh);
  EXPECT_EQ(merged[1].id, "storage_bound");
}

}  // namespace
}  // namespace dlbench::insights
