// Model configurations of the reference test vectors: the
// MLPerf Storage llama3 YAMLs, DLIO's llama workloads and megatron_deepspeed_LLNL.
#pragma once

#include <cstdint>

#include "config/config.h"

namespace dlbench::checkpoint::test {

inline config::ModelConfig Transformer(std::int64_t layers, std::int64_t vocab, std::int64_t hidden,
                                       std::int64_t ffn, std::int64_t heads, std::int64_t kv_heads,
                                       int tp, int pp, int zero) {
  config::ModelConfig m;
  m.type = "transformer";
  m.num_layers = layers;
  m.transformer = {vocab, hidden, ffn, heads, kv_heads};
  m.parallelism.tensor = tp;
  m.parallelism.pipeline = pp;
  m.parallelism.zero_stage = zero;
  return m;
}

inline config::ModelConfig Llama3_8b() {
  return Transformer(32, 128256, 4096, 14336, 32, 8, 1, 1, 3);
}
inline config::ModelConfig Llama3_70b() {
  return Transformer(80, 128256, 8192, 28672, 128, 8, 8, 1, 3);
}
inline config::ModelConfig Llama3_405b() {
  return Transformer(126, 128256, 16384, 53248, 128, 8, 8, 32, 1);
}
inline config::ModelConfig Llama3_1t() {
  return Transformer(128, 128256, 25872, 98304, 192, 32, 8, 64, 1);
}
// DLIO's llama_7b (ZeRO 1) and llama_7b_zero3.
inline config::ModelConfig Llama_7b(int zero) {
  return Transformer(32, 32000, 4096, 11008, 32, 32, 1, 1, zero);
}
// DLIO's llama_70b: TP 8, PP 4, ZeRO 1.
inline config::ModelConfig Llama_70b() {
  return Transformer(80, 128256, 8192, 28672, 128, 8, 8, 4, 1);
}

inline config::ModelConfig MegatronDeepspeedLlnl() {
  config::ModelConfig m;
  m.name = "megatron_deepspeed";
  m.type = "megatron_deepspeed";
  m.optimization_groups = {1009254400, 865075200, 793600};
  m.num_layers = 40;
  m.layer_parameters = {52583936, 209715200};
  m.parallelism.tensor = 4;
  m.parallelism.pipeline = 8;
  m.parallelism.zero_stage = 1;
  return m;
}

inline config::CheckpointConfig Default() { return {}; }
inline config::CheckpointConfig Subset() {
  config::CheckpointConfig c;
  c.mode = config::CheckpointMode::kSubset;
  return c;
}

}  // namespace dlbench::checkpoint::test
