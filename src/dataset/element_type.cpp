#include "dataset/element_type.h"

#include <array>
#include <utility>

#include "util/error.h"

namespace dlbench::dataset {
namespace {

struct Known {
  const char* name;
  const char* code;  // kind + size, as in the NPY descr
  int itemsize;
};

constexpr std::array<Known, 12> kKnown = {{
    {"uint8", "u1", 1},
    {"int8", "i1", 1},
    {"uint16", "u2", 2},
    {"int16", "i2", 2},
    {"uint32", "u4", 4},
    {"int32", "i4", 4},
    {"uint64", "u8", 8},
    {"int64", "i8", 8},
    {"float16", "f2", 2},
    {"float32", "f4", 4},
    {"float64", "f8", 8},
    {"bool", "b1", 1},
}};

constexpr std::array<std::pair<const char*, const char*>, 14> kAliases = {{
    {"float", "float64"},
    {"double", "float64"},
    {"half", "float16"},
    {"single", "float32"},
    {"int", "int64"},
    {"byte", "int8"},
    {"ubyte", "uint8"},
    {"short", "int16"},
    {"ushort", "uint16"},
    {"intc", "int32"},
    {"uintc", "uint32"},
    {"longlong", "int64"},
    {"ulonglong", "uint64"},
    {"bool_", "bool"},
}};

ElementType Make(const Known& known) {
  const char order = known.itemsize == 1 ? '|' : '<';
  return ElementType{known.name, known.itemsize, std::string(1, order) + known.code};
}

}  // namespace

ElementType ParseElementType(std::string_view dtype) {
  std::string_view name = dtype;
  for (const auto& [alias, target] : kAliases) {
    if (name == alias) name = target;
  }
  for (const Known& known : kKnown) {
    if (name == known.name) return Make(known);
  }
  std::string_view code = name;
  if (!code.empty() && (code.front() == '<' || code.front() == '|' || code.front() == '=')) {
    code.remove_prefix(1);
  }
  if (code == "?") code = "b1";
  if (code == "b") code = "i1";  // NumPy's one-character codes for the byte types
  if (code == "B") code = "u1";
  for (const Known& known : kKnown) {
    if (code == known.code) return Make(known);
  }
  throw UsageError("dataset.record_element_type: unsupported dtype '" + std::string(dtype) +
                   "'; use one of uint8, int8, uint16, int16, uint32, int32, uint64, int64, "
                   "float16, float32, float64, bool (or a little-endian code such as '<f4')");
}

}  // namespace dlbench::dataset
