#include "dataset/sample_size_model.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <string>
#include <utility>

#include "dataset/legacy_normal.h"
#include "util/error.h"
#include "util/host_memory.h"
#include "util/size_text.h"

namespace dlbench::dataset {
namespace {

// DLIO seeds NumPy's global generator with 10 before drawing the sizes.
constexpr std::uint32_t kSizeSeed = 10;

// 100 rather than std::to_string's 100.000000.
std::string ShortNumber(double value) {
  char text[32];
  std::snprintf(text, sizeof(text), "%g", value);
  return text;
}

}  // namespace

SampleSizeModel::SampleSizeModel(double record_length_bytes, double record_length_bytes_stdev,
                                 std::vector<std::int64_t> record_dims, ElementType element,
                                 std::uint64_t total_files)
    : element_(std::move(element)),
      total_files_(total_files),
      record_dims_(std::move(record_dims)) {
  if (!record_dims_.empty()) {
    if (record_length_bytes_stdev > 0) {
      throw UsageError(
          "dataset.record_length_bytes_stdev must be 0 when dataset.record_dims is given (every "
          "file then has the shape record_dims)");
    }
    record_elements_ = 1;
    for (const std::int64_t d : record_dims_) {
      if (d < 1) {
        throw UsageError("dataset.record_dims: every dimension must be at least 1, got " +
                         std::to_string(d));
      }
      record_elements_ *= static_cast<std::uint64_t>(d);
    }
    return;
  }
  if (!(record_length_bytes >= 1.0)) {
    throw UsageError("dataset.record_length_bytes must be at least 1, got " +
                     std::to_string(record_length_bytes));
  }
  // The same expressions, in the same order, as DLIO: int() truncates, and the stdev is halved
  // before the division.
  const double root = std::sqrt(record_length_bytes);
  dim_ = static_cast<std::int64_t>(root);
  dim_stdev_ = record_length_bytes_stdev / 2 / root;
  if (!(dim_stdev_ > 0)) return;

  // Two dimensions per file, drawn up front (8 bytes a file): 2^32 unet3d files asked for 32 GiB
  // and ended in "internal error: std::bad_alloc" (exit 1).
  const double table_bytes = 2.0 * sizeof(std::uint32_t) * static_cast<double>(total_files_);
  const std::optional<double> memory = PhysicalMemoryBytes();
  if (total_files_ > drawn_.max_size() / 2 || (memory && table_bytes > *memory / 2)) {
    throw UsageError(
        "dataset.record_length_bytes_stdev " + ShortNumber(record_length_bytes_stdev) +
        " > 0 draws each file's sample size up front, 8 bytes per file: " +
        std::to_string(total_files_) + " files (dataset.num_files_train + num_files_eval) need " +
        (table_bytes < 9e18 ? DescribeBytes(static_cast<Bytes>(table_bytes))
                            : std::to_string(table_bytes) + " B") +
        ", more than half of this host's memory" +
        (memory ? " (" + DescribeBytes(static_cast<Bytes>(*memory)) + ")" : std::string()) +
        "; use fewer files or record_length_bytes_stdev: 0");
  }
  LegacyNormal normal(kSizeSeed);
  drawn_.resize(2 * total_files_);
  constexpr double kMax = std::numeric_limits<std::uint32_t>::max();
  for (std::uint32_t& d : drawn_) {
    const double v = normal.normal(static_cast<double>(dim_), dim_stdev_);
    if (!(v < kMax)) {
      throw UsageError("dataset.record_length_bytes_stdev " +
                       std::to_string(record_length_bytes_stdev) +
                       " is too large: a sample dimension of " + std::to_string(v) + " was drawn");
    }
    // max(int(v), 1): int() truncates toward zero, so anything below 2 becomes 1.
    d = v < 1.0 ? 1u : static_cast<std::uint32_t>(v);
  }
}

SampleSizeModel SampleSizeModel::FromConfig(const config::DatasetConfig& dataset) {
  if (dataset.num_files_train < 0) {
    throw UsageError("dataset.num_files_train must not be negative, got " +
                     std::to_string(dataset.num_files_train));
  }
  const std::uint64_t files =
      static_cast<std::uint64_t>(dataset.num_files_train) +
      static_cast<std::uint64_t>(std::max<std::int64_t>(dataset.num_files_eval, 0));
  return SampleSizeModel(dataset.record_length_bytes, dataset.record_length_bytes_stdev,
                         dataset.record_dims, ParseElementType(dataset.record_element_type), files);
}

void SampleSizeModel::check_file(FileIndex file) const {
  if (varies() && file >= total_files_) {
    throw InternalError("sample size asked for file " + std::to_string(file) + " of a dataset of " +
                        std::to_string(total_files_) + " files");
  }
}

std::vector<std::int64_t> SampleSizeModel::dims(FileIndex file) const {
  std::vector<std::int64_t> dims;
  assign_dims(file, dims);
  return dims;
}

void SampleSizeModel::assign_dims(FileIndex file, std::vector<std::int64_t>& out) const {
  if (!record_dims_.empty()) {
    out = record_dims_;
    return;
  }
  check_file(file);
  out.resize(2);
  out[0] = varies() ? drawn_[2 * file] : dim_;
  out[1] = varies() ? drawn_[2 * file + 1] : dim_;
}

std::uint64_t SampleSizeModel::elements(FileIndex file) const {
  if (!record_dims_.empty()) return record_elements_;
  check_file(file);
  if (!varies()) return static_cast<std::uint64_t>(dim_) * static_cast<std::uint64_t>(dim_);
  return std::uint64_t{drawn_[2 * file]} * drawn_[2 * file + 1];
}

}  // namespace dlbench::dataset
