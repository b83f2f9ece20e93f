// MLPerf Storage's dataset-size rule for training (`mlpstorage training datasize`): the
// dataset must hold at least 5x the clients' memory and enough samples for 500 steps of every
// accelerator. `dlbench datasize` prints it.
#pragma once

#include <cstdint>

#include "config/config.h"
#include "util/units.h"

namespace dlbench::dataset {

struct ClientHosts {
  int hosts = 1;
  int accelerators_per_host = 1;
  double memory_gib = 0;  // per host, GiB (MLPerf's --client-host-memory-in-gb x 1024^3 B)
};

struct MlperfDatasetSize {
  double record_bytes = 0;  // one sample
  double file_bytes = 0;    // num_samples_per_file samples
  Bytes memory_bytes = 0;   // every host's memory
  // 5 x memory / file bytes, rounded up (MLPerf rule 3.1.2: rounded down, a checker rejected it).
  std::int64_t files_by_memory = 0;
  // 500 x accelerators x batch_size / num_samples_per_file, rounded down as MLPerf's tool does.
  std::int64_t files_by_steps = 0;
  std::int64_t files = 0;  // the larger: num_files_train must be at least this
  double total_bytes = 0;  // files x file bytes
};

inline constexpr int kMlperfMemoryMultiple = 5;
inline constexpr int kMlperfMinimumSteps = 500;

// One sample's bytes as MLPerf counts them: for Parquet with columns, the sum of size x element
// bytes (float64/int64 8, uint8/bool 1, anything else 4); otherwise record_length_bytes.
double MlperfRecordBytes(const config::DatasetConfig& dataset);

// Throws Error(kUsage) naming the flag for hosts or accelerators < 1 or memory <= 0, naming
// the key when the workload's samples have no size, and for a workload that neither trains nor
// generates (checkpoint-only).
MlperfDatasetSize ComputeMlperfDatasetSize(const config::Config& config, const ClientHosts& hosts);

}  // namespace dlbench::dataset
