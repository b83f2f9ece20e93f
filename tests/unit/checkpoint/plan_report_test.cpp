#include "checkpoint/plan_report.h"

#include <gtest/gtest.h>

#include <string>

#include "unit/checkpoint/model_fixtures.h"
#include "util/size_text.h"

namespace dlbench::checkpoint {
namespace {

bool Contains(const std::string& text, const std::string& needle) {
  return text.find(needle) != std::string::npos;
}

TEST(PlanReport, Formatting) {
  EXPECT_EQ(FormatBytesExact(0), "0");
  EXPECT_EQ(FormatBytesExact(999), "999");
  EXPECT_EQ(FormatBytesExact(1000), "1,000");
  EXPECT_EQ(FormatBytesExact(5'682'508'791'808), "5,682,508,791,808");
  EXPECT_EQ(FormatGiB(112'425'623'552), "104.70 GiB");
  EXPECT_EQ(FormatRankRanges({0, 1, 2, 3, 8, 10, 11}, 6), "0-3, 8, 10-11");
  EXPECT_EQ(FormatRankRanges({0, 2, 4, 6}, 2), "0, 2, ... (2 more ranges)");
}

TEST(PlanReport, Llama3_405bTotalsAndGroups) {
  CheckpointPlan plan(test::Llama3_405b(), test::Default(), 512);
  const std::string text = RenderPlan(plan, {.title = "llama3_405b"});
  EXPECT_TRUE(Contains(text, "Checkpoint plan: llama3_405b")) << text;
  EXPECT_TRUE(Contains(text, "5,682,508,791,808 B (5292.25 GiB) in 1544 files")) << text;
  EXPECT_TRUE(Contains(text, "9,513,171,840 - 13,226,441,600 B")) << text;
  EXPECT_TRUE(Contains(text, "DLIO reports 5,682,508,791,808 B")) << text;
  EXPECT_FALSE(Contains(text, "differs")) << text;
  // Stage 0 ranks and the second replica are grouped, not listed one by one.
  EXPECT_TRUE(Contains(text, "ranks 0-7 (8 ranks): 6 files, 13,226,441,600 B")) << text;
  EXPECT_TRUE(Contains(text, "ranks 256-511 (256 ranks): 1 file, 9,513,171,840 B")) << text;
  EXPECT_TRUE(Contains(text, "layer_0-model_0_model_states.pt  525,336,576 B")) << text;
  EXPECT_LT(text.size(), 8000u);
}

TEST(PlanReport, NotesWhenDlioReportsSomethingElse) {
  CheckpointPlan plan(test::MegatronDeepspeedLlnl(), test::Default(), 32);
  const std::string text = RenderPlan(plan);
  EXPECT_TRUE(Contains(text, "190,504,120,320 B (177.42 GiB) in 224 files")) << text;
  EXPECT_TRUE(Contains(text, "DLIO reports 10,240 B")) << text;
  EXPECT_TRUE(Contains(text, "differs")) << text;
  EXPECT_TRUE(Contains(text, "legacy")) << text;

  const std::string z2 = RenderPlan(CheckpointPlan(test::Llama_7b(2), test::Default(), 8));
  EXPECT_TRUE(Contains(z2, "ZeRO 2 counts")) << z2;
}

// unet3d's YAML gives model.model_size, which DLIO >=2.0 never reads: DLIO writes and reports its
// default 10,240-byte model, dlbench the size the YAML asks for.
TEST(PlanReport, SaysWhatDlioWritesWhenItIgnoresModelSize) {
  config::ModelConfig m;
  m.model_size_bytes = 499'153'191;
  m.model_size_ignored_by_dlio = true;
  const CheckpointPlan plan(m, test::Default(), 2);
  EXPECT_EQ(plan.summarize().dlio_own_bytes, 10'240u);
  EXPECT_EQ(plan.summarize().dlio_reported_bytes, 499'153'191u);
  const std::string text = RenderPlan(plan);
  EXPECT_TRUE(Contains(text, "499,153,191 B (0.46 GiB) in 1 file written by 1 rank")) << text;
  EXPECT_TRUE(Contains(text,
                       "DLIO reports 10,240 B (0.00 GiB) (DLIO labels GiB \"GB\"): DLIO "
                       ">=2.0 ignores model.model_size and writes its default model"))
      << text;
  EXPECT_TRUE(Contains(text, "dlbench's checkpoint by DLIO's count 499,153,191 B")) << text;

  m.model_size_ignored_by_dlio = false;  // given as model.model_size_bytes: DLIO writes it too
  const std::string same = RenderPlan(CheckpointPlan(m, test::Default(), 2));
  EXPECT_EQ(CheckpointPlan(m, test::Default(), 2).summarize().dlio_own_bytes, 0u);
  EXPECT_TRUE(Contains(same, "DLIO reports 499,153,191 B (0.46 GiB) (DLIO labels GiB \"GB\")\n"))
      << same;
}

TEST(PlanReport, RanksThatWriteNothing) {
  config::ModelConfig m;  // non-transformer defaults: rank 0 writes 10,240 B
  const std::string text = RenderPlan(CheckpointPlan(m, test::Default(), 4));
  EXPECT_TRUE(Contains(text, "10,240 B (0.00 GiB) in 1 file written by 1 rank")) << text;
  EXPECT_TRUE(Contains(text, "ranks 1-3 (3 ranks): write nothing")) << text;
}

}  // namespace
}  // namespace dlbench::checkpoint
