#include "dataset/mlperf_dataset_size.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "util/error.h"

namespace dlbench::dataset {

double MlperfRecordBytes(const config::DatasetConfig& dataset) {
  if (dataset.format != config::Format::kParquet || dataset.parquet.columns.empty()) {
    return dataset.record_length_bytes;
  }
  double bytes = 0;
  for (const config::ParquetColumn& column : dataset.parquet.columns) {
    const std::string& type = column.dtype;
    const int element = type == "float64" || type == "int64" ? 8
                        : type == "uint8" || type == "bool"  ? 1
                                                             : 4;
    bytes += static_cast<double>(column.size) * element;
  }
  return bytes;
}

MlperfDatasetSize ComputeMlperfDatasetSize(const config::Config& config, const ClientHosts& hosts) {
  if (hosts.hosts < 1) {
    throw UsageError("datasize: --hosts must be at least 1, got " + std::to_string(hosts.hosts));
  }
  if (hosts.accelerators_per_host < 1) {
    throw UsageError("datasize: --accelerators-per-host must be at least 1, got " +
                     std::to_string(hosts.accelerators_per_host));
  }
  if (!(hosts.memory_gib > 0) || !std::isfinite(hosts.memory_gib)) {
    throw UsageError("datasize: --host-memory-gib must be a positive number of GiB, got " +
                     std::to_string(hosts.memory_gib));
  }
  // A checkpoint-only workload (llama3_8b) has only the default dataset section: sizing it
  // printed a file count for 64 KiB files nobody reads or writes.
  if (!config.workflow.train && !config.workflow.generate_data) {
    throw UsageError("datasize: workload " + config.model.name +
                     " reads and generates no dataset (workflow.train and "
                     "workflow.generate_data are false: a checkpoint-only workload); the rule "
                     "sizes a training dataset");
  }
  const config::DatasetConfig& dataset = config.dataset;
  MlperfDatasetSize size;
  size.record_bytes = MlperfRecordBytes(dataset);
  size.file_bytes = size.record_bytes * static_cast<double>(dataset.num_samples_per_file);
  if (!(size.file_bytes > 0)) {
    throw UsageError(
        "datasize: the workload's files hold no bytes (dataset.record_length_bytes " +
        std::to_string(dataset.record_length_bytes) + " x dataset.num_samples_per_file " +
        std::to_string(dataset.num_samples_per_file) + "); set dataset.record_length_bytes");
  }
  // Integer counts up to 2^62; beyond, the conversions below wrapped round (a record of 1e30
  // bytes became 0 and was divided by: SIGFPE).
  constexpr double kMaxCount = 4611686018427387904.0;  // 2^62
  const double gib = 1024.0 * 1024 * 1024;
  if (hosts.memory_gib * gib * hosts.hosts * kMlperfMemoryMultiple >= kMaxCount) {
    throw UsageError(
        "datasize: --hosts x --host-memory-gib is more memory than dlbench counts "
        "(5 x memory must be below 2^62 bytes)");
  }
  const auto per_host = static_cast<Bytes>(std::llround(hosts.memory_gib * gib));
  size.memory_bytes = per_host * static_cast<Bytes>(hosts.hosts);
  const Bytes needed = kMlperfMemoryMultiple * size.memory_bytes;
  if (size.file_bytes < kMaxCount &&
      size.file_bytes == std::floor(size.file_bytes)) {  // exact: no rounding error at a multiple
    const auto file = static_cast<Bytes>(size.file_bytes);
    size.files_by_memory = static_cast<std::int64_t>((needed + file - 1) / file);
  } else {
    size.files_by_memory =
        static_cast<std::int64_t>(std::ceil(static_cast<double>(needed) / size.file_bytes));
  }
  const std::int64_t accelerators =
      static_cast<std::int64_t>(hosts.hosts) * hosts.accelerators_per_host;
  std::int64_t step_samples = 0;
  if (__builtin_mul_overflow(accelerators, std::int64_t{kMlperfMinimumSteps}, &step_samples) ||
      __builtin_mul_overflow(step_samples, config.reader.batch_size, &step_samples)) {
    throw UsageError("datasize: 500 steps x " + std::to_string(accelerators) +
                     " accelerators x reader.batch_size " +
                     std::to_string(config.reader.batch_size) + " samples overflows 64 bits");
  }
  size.files_by_steps = step_samples / dataset.num_samples_per_file;
  size.files = std::max(size.files_by_memory, size.files_by_steps);
  size.total_bytes = static_cast<double>(size.files) * size.file_bytes;
  return size;
}

}  // namespace dlbench::dataset
