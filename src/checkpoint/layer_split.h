// Which layer indices a pipeline stage holds. Index 0 is the embedding,
// 1..L the transformer layers, L+1 the lm_head and L+2 the final norm.
#pragma once

#include <cstdint>

namespace dlbench::checkpoint {

// Layer indices first..last inclusive; empty when last < first.
struct LayerRange {
  std::int64_t first = 0;
  std::int64_t last = -1;

  bool empty() const { return last < first; }
  std::int64_t count() const { return empty() ? 0 : last - first + 1; }
};

// The layers of `stage` of `stages` for `layers` transformer layers, the first layers % stages
// stages holding one extra. With `with_embedding_and_head` the first stage also holds index 0 and
// the last stage indices L+1 and L+2 (not so on DLIO's legacy layer_parameters path).
LayerRange StageLayers(std::int64_t layers, int stages, int stage, bool with_embedding_and_head);

}  // namespace dlbench::checkpoint
