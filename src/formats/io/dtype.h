// NumPy element types a dataset may hold (dataset.record_element_type), with their NPY `descr`
// and HDF5 spelling.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace dlbench::formats {

struct DType {
  std::string_view name;  // NumPy name: "uint8", "float32", ...
  int itemsize;
  std::string_view descr;  // NPY descr: "|u1", "<f4", ...
};

// Throws Error(kUsage) naming the dtype and the allowed names.
const DType& LookupDType(std::string_view name);
// By NPY descr; accepts "<" and "=" byte orders for multi-byte types and "|"/"<"/"=" for 1 byte.
std::optional<DType> DTypeFromDescr(std::string_view descr);

}  // namespace dlbench::formats
