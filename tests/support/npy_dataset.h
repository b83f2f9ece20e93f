// The small NPY dataset the workflow tests generate, built in one place: `train` + `eval` files
// of 2 samples of 32x32 bytes (1 KiB records; 128 + 2048 bytes a file) in `data_folder`. Each test
// sets what else it is about. Header-only: its users link dlbench's config module.
#pragma once

#include <cstdint>
#include <filesystem>

#include "config/config.h"

namespace dlbench::test {

// The size of each of NpyDataset's files: the 128-byte npy header and two 1 KiB samples.
inline constexpr std::uint64_t kNpyDatasetFileBytes = 128 + 2 * 1024;

inline config::Config NpyDataset(const std::filesystem::path& data_folder, std::int64_t train,
                                 std::int64_t eval) {
  config::Config config;
  config.dataset.data_folder = data_folder.string();
  config.dataset.format = config::Format::kNpy;
  config.dataset.num_files_train = train;
  config.dataset.num_files_eval = eval;
  config.dataset.num_samples_per_file = 2;
  config.dataset.record_length_bytes = 1024;
  return config;
}

}  // namespace dlbench::test
