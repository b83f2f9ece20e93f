#include "checkpoint/layer_split.h"

namespace dlbench::checkpoint {

LayerRange StageLayers(std::int64_t layers, int stages, int stage, bool with_embedding_and_head) {
  // DLIO writes no layer files at all without layers (its save path checks num_layers > 0).
  if (layers <= 0 || stages < 1) return {};
  const std::int64_t q = layers / stages;
  const std::int64_t rem = layers % stages;
  LayerRange range;
  if (stage < rem) {
    range.first = stage * (q + 1) + 1;
    range.last = range.first + q;
  } else {
    range.first = rem * (q + 1) + (stage - rem) * q + 1;
    range.last = range.first + q - 1;
  }
  if (with_embedding_and_head) {
    if (stage == 0) range.first = 0;
    if (stage == stages - 1) range.last = layers + 2;
  }
  return range;
}

}  // namespace dlbench::checkpoint
