// The NumPy dtype of generated samples (dataset.record_element_type): its size, and the `descr`
// string NPY headers carry.
#pragma once

#include <string>
#include <string_view>

namespace dlbench::dataset {

struct ElementType {
  std::string name;       // canonical NumPy name: "uint8", "float32", "bool", ...
  int itemsize = 1;       // bytes per element
  std::string npy_descr;  // little-endian NPY descr: "|u1", "<f4", "|b1", ...
};

// Accepts NumPy names ("float32"), type codes ("f4", "u1"), descrs with a byte order ("<f4",
// "|u1", "=i8"), and the C aliases NumPy knows ("float", "double", "half", "int", "byte",
// "ubyte", "short", "ushort", "intc", "uintc", "longlong", "ulonglong"). Throws UsageError naming
// the key, the value and what is accepted; big-endian ('>') is rejected.
ElementType ParseElementType(std::string_view dtype);

}  // namespace dlbench::dataset
