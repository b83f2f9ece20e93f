#include "checkpoint/file_names.h"

namespace dlbench::checkpoint {
namespace {

std::string WithExtension(std::string stem) {
  stem += '.';
  stem += kPyTorchExtension;
  return stem;
}

}  // namespace

std::string CheckpointFolderName(std::int64_t epoch, std::int64_t step) {
  return "global_epoch" + std::to_string(epoch) + "_step" + std::to_string(step);
}

std::string ModelStatesFileName(Rank rank) {
  return WithExtension("model_states-" + std::to_string(rank));
}

std::string LayerFileName(std::int64_t layer, int mp) {
  return WithExtension("layer_" + std::to_string(layer) + "-model_" + std::to_string(mp) +
                       "_model_states");
}

std::string ModelFileName(int mp) {
  return WithExtension("model_" + std::to_string(mp) + "_model_states");
}

std::string ZeroModelFileName(int dp, int mp) {
  return WithExtension("zero_pp_rank_" + std::to_string(dp) + "_mp_rank_" + std::to_string(mp) +
                       "_model_states");
}

std::string OptimizerFileName(int dp, int mp) {
  return WithExtension("zero_pp_rank_" + std::to_string(dp) + "_mp_rank_" + std::to_string(mp) +
                       "_optim_states");
}

}  // namespace dlbench::checkpoint
