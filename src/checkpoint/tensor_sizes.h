// Element counts of the tensors DLIO models for a Megatron-DeepSpeed transformer. Every expression
// is evaluated left to right with integer division in DLIO's order, because the test vectors depend
// on where the remainders are dropped.
#pragma once

#include <cstdint>
#include <vector>

#include "config/config.h"

namespace dlbench::checkpoint {

struct TransformerShape {
  std::int64_t layers = 0;      // L
  std::int64_t vocab = 0;       // V
  std::int64_t hidden = 0;      // H
  std::int64_t ffn_hidden = 0;  // F
  std::int64_t heads = 1;
  std::int64_t kv_heads = 1;

  std::int64_t kv_dim() const { return (hidden / heads) * kv_heads; }
};

// The shape from model.num_layers and model.transformer; throws Error(kUsage) naming the key when a
// dimension is not positive.
TransformerShape ShapeOf(const config::ModelConfig& model);

// P_total: the parameter count that sizes the optimizer state.
std::uint64_t TotalParameters(const TransformerShape& shape);

// Element counts of the tensors of layer `index` (0 embedding, 1..L transformer, L+1 lm_head,
// L+2 final norm) on one tensor-parallel shard, each divided by `shard_factor` (DP for ZeRO 3).
// Tensors that round down to zero elements are left out.
std::vector<std::uint64_t> LayerTensorElements(const TransformerShape& shape, std::int64_t index,
                                               int tensor_parallel, int shard_factor);

// Optimizer tensors of one participating rank: [n, 5H, n, 5H, n, 5H] (fp32 master weights and
// Adam moments) where n = P_total / `divisor`; empty when n is 0.
std::vector<std::uint64_t> OptimizerTensorElements(const TransformerShape& shape,
                                                   std::uint64_t divisor);

}  // namespace dlbench::checkpoint
