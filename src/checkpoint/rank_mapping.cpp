#include "checkpoint/rank_mapping.h"

#include <string>

#include "util/error.h"

namespace dlbench::checkpoint {

ParallelLayout MakeLayout(const config::ModelConfig& model, const config::CheckpointConfig& ckpt,
                          int world) {
  const config::ParallelismConfig& par = model.parallelism;
  if (world < 1)
    throw UsageError("checkpoint plan: world size must be >= 1, got " + std::to_string(world));
  if (par.tensor < 1) {
    throw UsageError("model.parallelism.tensor must be >= 1, got " + std::to_string(par.tensor));
  }
  if (par.pipeline < 1) {
    throw UsageError("model.parallelism.pipeline must be >= 1, got " +
                     std::to_string(par.pipeline));
  }
  ParallelLayout layout;
  layout.tp = par.tensor;
  layout.pp = par.pipeline;
  layout.world = world;
  const long long mp = static_cast<long long>(par.tensor) * par.pipeline;
  if (mp > (1LL << 30)) throw UsageError("model.parallelism: tensor * pipeline is too large");
  if (ckpt.mode == config::CheckpointMode::kSubset) {
    layout.subset = true;
    if (par.data < 1) {
      throw UsageError(
          "checkpoint.mode: subset needs model.parallelism.data (the data-parallel size of the "
          "full job) >= 1, got " +
          std::to_string(par.data));
    }
    if (static_cast<long long>(par.data) * mp < world) {
      throw UsageError("checkpoint.mode: subset: model.parallelism.data * tensor * pipeline = " +
                       std::to_string(static_cast<long long>(par.data) * mp) +
                       " is smaller than the " + std::to_string(world) + " ranks of this job");
    }
    layout.dp = par.data;
    return layout;
  }
  if (world % mp != 0) {
    throw UsageError(
        "checkpoint: " + std::to_string(world) +
        " ranks are not a multiple of model.parallelism.tensor * pipeline = " + std::to_string(mp));
  }
  layout.dp = static_cast<int>(world / mp);
  if (par.data > 0 && par.data != layout.dp) {
    throw UsageError("model.parallelism.data = " + std::to_string(par.data) +
                     " needs checkpoint.mode: subset (in default mode DP is ranks / (TP*PP) = " +
                     std::to_string(layout.dp) + ")");
  }
  return layout;
}

Rank RecoveryRank(Rank rank, int ranks_per_node, int world) {
  if (ranks_per_node < 1) {
    throw UsageError("checkpoint.recovery_rank_shift: ranks per node must be >= 1, got " +
                     std::to_string(ranks_per_node));
  }
  if (rank < 0 || rank >= world) {
    throw UsageError("checkpoint.recovery_rank_shift: rank " + std::to_string(rank) +
                     " is outside 0.." + std::to_string(world - 1));
  }
  return static_cast<Rank>((static_cast<long long>(rank) + ranks_per_node) % world);
}

bool RankShiftCrossesNodes(int ranks_per_node, int world) {
  return ranks_per_node >= 1 && world / ranks_per_node >= 2;
}

}  // namespace dlbench::checkpoint
