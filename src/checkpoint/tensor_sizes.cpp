#include "checkpoint/tensor_sizes.h"

#include <string>

#include "util/error.h"

namespace dlbench::checkpoint {
namespace {

std::int64_t Positive(std::int64_t value, const char* key) {
  if (value < 1) {
    throw UsageError(std::string(key) + " must be >= 1 for a transformer checkpoint, got " +
                     std::to_string(value));
  }
  return value;
}

}  // namespace

TransformerShape ShapeOf(const config::ModelConfig& model) {
  TransformerShape shape;
  shape.layers = Positive(model.num_layers, "model.num_layers");
  shape.vocab = Positive(model.transformer.vocab_size, "model.transformer.vocab_size");
  shape.hidden = Positive(model.transformer.hidden_size, "model.transformer.hidden_size");
  shape.ffn_hidden =
      Positive(model.transformer.ffn_hidden_size, "model.transformer.ffn_hidden_size");
  shape.heads =
      Positive(model.transformer.num_attention_heads, "model.transformer.num_attention_heads");
  shape.kv_heads = Positive(model.transformer.num_kv_heads, "model.transformer.num_kv_heads");
  return shape;
}

std::uint64_t TotalParameters(const TransformerShape& s) {
  const std::uint64_t h = s.hidden;
  const std::uint64_t v = s.vocab;
  const std::uint64_t f = s.ffn_hidden;
  const std::uint64_t l = s.layers;
  const std::uint64_t kv = s.kv_dim();
  const std::uint64_t per_layer = 2 * h + h * (h + 2 * kv) + h * h + 3 * h * f;
  return 2 * v * h + l * per_layer + h;
}

std::vector<std::uint64_t> LayerTensorElements(const TransformerShape& s, std::int64_t index,
                                               int tensor_parallel, int shard_factor) {
  const std::uint64_t h = s.hidden;
  const std::uint64_t tp = tensor_parallel;
  const std::uint64_t sf = shard_factor;
  std::vector<std::uint64_t> elements;
  if (index == 0 || index == s.layers + 1) {
    elements = {h * static_cast<std::uint64_t>(s.vocab) / tp / sf};
  } else if (index == s.layers + 2) {
    elements = {h / sf};
  } else {
    const std::uint64_t kv = s.kv_dim();
    const std::uint64_t f = s.ffn_hidden;
    elements = {
        h / sf,                      // input norm (never split by TP)
        h * (h + 2 * kv) / tp / sf,  // fused QKV
        h * h / tp / sf,             // attention output projection
        h / sf,                      // post-attention norm
        h * 2 * f / tp / sf,         // gated MLP up projection
        h * f / tp / sf,             // MLP down projection
    };
  }
  std::erase(elements, 0);
  return elements;
}

std::vector<std::uint64_t> OptimizerTensorElements(const TransformerShape& s,
                                                   std::uint64_t divisor) {
  const std::uint64_t n = TotalParameters(s) / divisor;
  if (n == 0) return {};
  const std::uint64_t h5 = 5 * static_cast<std::uint64_t>(s.hidden);
  return {n, h5, n, h5, n, h5};
}

}  // namespace dlbench::checkpoint
