// Per-file sample shapes, DLIO's model: every sample of a file has the same 2-D
// shape (d1, d2), drawn per file from a fixed-seed normal around sqrt(record_length_bytes) when
// record_length_bytes_stdev > 0, else the same for all files; `record_dims` fixes the shape
// instead. Files are numbered globally in generation order (train, then eval). The draw is done
// once, into 8 bytes per file, so it scales to millions of files.
#pragma once

#include <cstdint>
#include <vector>

#include "config/config.h"
#include "dataset/element_type.h"
#include "util/units.h"

namespace dlbench::dataset {

class SampleSizeModel {
 public:
  // `total_files`: the files generated (N_t + N_e), the length of DLIO's draw. Throws UsageError
  // for a record length below 1 byte, non-positive record_dims, or record_dims combined with a
  // stdev.
  SampleSizeModel(double record_length_bytes, double record_length_bytes_stdev,
                  std::vector<std::int64_t> record_dims, ElementType element,
                  std::uint64_t total_files);
  // From dataset.*: N_t + N_e files (N_e only if positive), record_element_type parsed.
  static SampleSizeModel FromConfig(const config::DatasetConfig& dataset);

  std::uint64_t total_files() const { return total_files_; }
  const ElementType& element() const { return element_; }
  // The 2-D model's dim = int(sqrt(record_length_bytes)) and dim_stdev (0 with record_dims).
  std::int64_t dim() const { return dim_; }
  double dim_stdev() const { return dim_stdev_; }
  // True when files differ in size.
  bool varies() const { return !drawn_.empty(); }

  // The sample shape of global file `file`: {d1, d2}, or record_dims.
  std::vector<std::int64_t> dims(FileIndex file) const;
  // dims() written into `out`, reusing its storage (no allocation once it held as many dims).
  void assign_dims(FileIndex file, std::vector<std::int64_t>& out) const;
  // Elements and bytes of one sample of `file` (no allocation).
  std::uint64_t elements(FileIndex file) const;
  Bytes sample_bytes(FileIndex file) const { return elements(file) * element_.itemsize; }

 private:
  void check_file(FileIndex file) const;

  ElementType element_;
  std::uint64_t total_files_;
  std::vector<std::int64_t> record_dims_;
  std::uint64_t record_elements_ = 0;  // product of record_dims
  std::int64_t dim_ = 0;
  double dim_stdev_ = 0.0;
  std::vector<std::uint32_t> drawn_;  // d[0 .. 2T-1] when varies()
};

}  // namespace dlbench::dataset
