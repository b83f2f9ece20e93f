#include "formats/io/dtype.h"

#include <array>

#include "util/error.h"

namespace dlbench::formats {
namespace {

constexpr std::array<DType, 11> kDTypes = {{
    {"uint8", 1, "|u1"},
    {"int8", 1, "|i1"},
    {"bool", 1, "|b1"},
    {"uint16", 2, "<u2"},
    {"int16", 2, "<i2"},
    {"float16", 2, "<f2"},
    {"uint32", 4, "<u4"},
    {"int32", 4, "<i4"},
    {"float32", 4, "<f4"},
    {"uint64", 8, "<u8"},
    {"int64", 8, "<i8"},
}};
constexpr DType kFloat64{"float64", 8, "<f8"};

}  // namespace

const DType& LookupDType(std::string_view name) {
  for (const DType& t : kDTypes) {
    if (t.name == name) return t;
  }
  if (name == kFloat64.name) return kFloat64;
  std::string allowed;
  for (const DType& t : kDTypes) allowed += std::string(t.name) + ", ";
  allowed += std::string(kFloat64.name);
  throw UsageError("unknown element type '" + std::string(name) + "' (allowed: " + allowed + ")");
}

std::optional<DType> DTypeFromDescr(std::string_view descr) {
  if (descr.size() < 2) return std::nullopt;
  const char order = descr[0];
  const std::string_view code = descr.substr(1);
  auto matches = [&](const DType& t) {
    if (t.descr.substr(1) != code) return false;
    if (t.itemsize == 1) return order == '|' || order == '<' || order == '=';
    return order == '<' || order == '=';
  };
  for (const DType& t : kDTypes) {
    if (matches(t)) return t;
  }
  if (matches(kFloat64)) return kFloat64;
  return std::nullopt;
}

}  // namespace dlbench::formats
