// Megatron-DeepSpeed file names of a checkpoint: plain decimal numbers, no
// padding, so that DLIO-written and dlbench-written checkpoints can be read by either.
#pragma once

#include <cstdint>
#include <string>

#include "util/units.h"

namespace dlbench::checkpoint {

inline constexpr const char* kPyTorchExtension = "pt";

// global_epoch{E}_step{S}
std::string CheckpointFolderName(std::int64_t epoch, std::int64_t step);

// model_states-{rank}.pt: the single tensor of a non-transformer model.
std::string ModelStatesFileName(Rank rank);
// layer_{i}-model_{mp}_model_states.pt: one layer of a pipeline stage (ZeRO 1/2, PP > 1).
std::string LayerFileName(std::int64_t layer, int mp);
// model_{mp}_model_states.pt: all layers of the single stage (ZeRO 1/2, PP = 1).
std::string ModelFileName(int mp);
// zero_pp_rank_{dp}_mp_rank_{mp}_model_states.pt: layer state of ZeRO 0 or a ZeRO 3 shard.
std::string ZeroModelFileName(int dp, int mp);
// zero_pp_rank_{dp}_mp_rank_{mp}_optim_states.pt: optimizer state.
std::string OptimizerFileName(int dp, int mp);

}  // namespace dlbench::checkpoint
