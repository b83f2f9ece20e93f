// How a rank of the job maps onto the tensor / pipeline / data parallel grid of the model, and
// which rank's files a rank reads back with a recovery rank shift.
#pragma once

#include "config/config.h"
#include "util/units.h"

namespace dlbench::checkpoint {

struct RankCoordinates {
  int tp = 0;  // tensor-parallel shard
  int pp = 0;  // pipeline stage
  int dp = 0;  // data-parallel replica
  int mp = 0;  // model-parallel rank: tp + TP * pp
};

// The parallel grid of one checkpoint: TP x PP x DP, of which the job's `world` ranks are ranks
// 0..world-1 (all of them in default mode, a prefix in subset mode).
struct ParallelLayout {
  int tp = 1;
  int pp = 1;
  int dp = 1;
  int world = 1;
  bool subset = false;

  int mp() const { return tp * pp; }
  RankCoordinates coordinates(Rank rank) const {
    return {rank % tp, (rank / tp) % pp, rank / mp(), rank % mp()};
  }
};

// The layout for `world` ranks. Default mode: DP = world / (TP*PP), which must divide evenly.
// Subset mode: DP = model.parallelism.data and DP*TP*PP >= world. Throws Error(kUsage) naming the
// key at fault.
ParallelLayout MakeLayout(const config::ModelConfig& model, const config::CheckpointConfig& ckpt,
                          int world);

// With checkpoint.recovery_rank_shift, rank r reads the files written by (r + ranks_per_node) %
// world so that no node reads back its own (possibly cached) shards.
Rank RecoveryRank(Rank rank, int ranks_per_node, int world);

// False when the job has a single node (world / ranks_per_node < 2): the shift then maps every
// rank onto a rank of its own node, so callers must warn or refuse.
bool RankShiftCrossesNodes(int ranks_per_node, int world);

}  // namespace dlbench::checkpoint
