#include "checkpoint/rank_mapping.h"

#include <gtest/gtest.h>

#include "checkpoint/file_names.h"
#include "checkpoint/layer_split.h"
#include "checkpoint/tensor_sizes.h"
#include "unit/checkpoint/model_fixtures.h"
#include "util/error.h"

namespace dlbench::checkpoint {
namespace {

TEST(RankMapping, CoordinatesFollowTensorThenPipelineThenData) {
  const ParallelLayout layout = MakeLayout(test::Llama3_405b(), test::Default(), 512);
  EXPECT_EQ(layout.dp, 2);
  EXPECT_EQ(layout.mp(), 256);
  const RankCoordinates a = layout.coordinates(0);
  EXPECT_EQ(a.tp, 0);
  EXPECT_EQ(a.pp, 0);
  EXPECT_EQ(a.dp, 0);
  const RankCoordinates b = layout.coordinates(300);  // 300 = 256 + 5*8 + 4
  EXPECT_EQ(b.tp, 4);
  EXPECT_EQ(b.pp, 5);
  EXPECT_EQ(b.dp, 1);
  EXPECT_EQ(b.mp, 44);
}

TEST(RankMapping, SubsetUsesConfiguredDataParallelism) {
  config::ModelConfig m = test::Llama3_70b();
  m.parallelism.data = 8;
  const ParallelLayout layout = MakeLayout(m, test::Subset(), 8);
  EXPECT_TRUE(layout.subset);
  EXPECT_EQ(layout.dp, 8);
  EXPECT_EQ(layout.world, 8);
}

TEST(RankMapping, RecoveryRankShiftsByOneNode) {
  EXPECT_EQ(RecoveryRank(0, 8, 64), 8);
  EXPECT_EQ(RecoveryRank(60, 8, 64), 4);
  EXPECT_EQ(RecoveryRank(63, 8, 64), 7);
  EXPECT_EQ(RecoveryRank(3, 4, 4), 3);  // one node: the shift maps a rank onto itself
  EXPECT_TRUE(RankShiftCrossesNodes(8, 16));
  EXPECT_FALSE(RankShiftCrossesNodes(8, 8));
  EXPECT_FALSE(RankShiftCrossesNodes(8, 12));
  EXPECT_THROW(RecoveryRank(0, 0, 8), Error);
  EXPECT_THROW(RecoveryRank(8, 4, 8), Error);
}

TEST(LayerSplit, FirstStagesGetTheRemainder) {
  // 405B: L = 126 over 32 stages: 30 stages of 4 layers, 2 of 3.
  LayerRange s0 = StageLayers(126, 32, 0, true);
  EXPECT_EQ(s0.first, 0);
  EXPECT_EQ(s0.last, 4);
  LayerRange s29 = StageLayers(126, 32, 29, true);
  EXPECT_EQ(s29.first, 117);
  EXPECT_EQ(s29.last, 120);
  LayerRange s30 = StageLayers(126, 32, 30, true);
  EXPECT_EQ(s30.first, 121);
  EXPECT_EQ(s30.last, 123);
  LayerRange s31 = StageLayers(126, 32, 31, true);
  EXPECT_EQ(s31.first, 124);
  EXPECT_EQ(s31.last, 128);
  // Without the extension (legacy path) and with a single stage.
  LayerRange legacy = StageLayers(40, 8, 0, false);
  EXPECT_EQ(legacy.first, 1);
  EXPECT_EQ(legacy.last, 5);
  LayerRange whole = StageLayers(32, 1, 0, true);
  EXPECT_EQ(whole.first, 0);
  EXPECT_EQ(whole.last, 34);
  EXPECT_TRUE(StageLayers(-1, 1, 0, false).empty());
  // Indices per TP shard over all stages: L + 3.
  std::int64_t total = 0;
  for (int s = 0; s < 64; ++s) total += StageLayers(128, 64, s, true).count();
  EXPECT_EQ(total, 131);
}

TEST(TensorSizes, IntegerDivisionInDlioOrder) {
  const TransformerShape s = ShapeOf(test::Llama3_1t());
  EXPECT_EQ(s.kv_dim(), 4288);  // 25872 / 192 = 134 (floor), times 32 KV heads
  const std::vector<std::uint64_t> layer = LayerTensorElements(s, 5, 8, 1);
  ASSERT_EQ(layer.size(), 6u);
  std::uint64_t sum = 0;
  for (std::uint64_t e : layer) sum += e;
  EXPECT_EQ(sum * 2, 2'297'744'064u);
  EXPECT_EQ(LayerTensorElements(s, 0, 8, 1), std::vector<std::uint64_t>{414'779'904});
  EXPECT_EQ(LayerTensorElements(s, 130, 8, 1), std::vector<std::uint64_t>{25'872});
  // Norm tensors that shard to zero elements are dropped.
  EXPECT_TRUE(LayerTensorElements(s, 130, 8, 100'000).empty());
  EXPECT_EQ(OptimizerTensorElements(s, 1024).size(), 6u);
  EXPECT_TRUE(OptimizerTensorElements(s, ~std::uint64_t{0}).empty());
}

TEST(FileNames, MegatronDeepSpeedStyle) {
  EXPECT_EQ(CheckpointFolderName(1, 10), "global_epoch1_step10");
  EXPECT_EQ(ModelStatesFileName(12), "model_states-12.pt");
  EXPECT_EQ(LayerFileName(128, 255), "layer_128-model_255_model_states.pt");
  EXPECT_EQ(ModelFileName(3), "model_3_model_states.pt");
  EXPECT_EQ(ZeroModelFileName(7, 0), "zero_pp_rank_7_mp_rank_0_model_states.pt");
  EXPECT_EQ(OptimizerFileName(1, 44), "zero_pp_rank_1_mp_rank_44_optim_states.pt");
}

}  // namespace
}  // namespace dlbench::checkpoint
