// Conversion between document nodes and the typed fields of Config, one overload per C++
// type: the schema picks the overload from the field's type, so a key's type is stated once.
// Errors name the key, what was found, what is allowed and where the value came from.
#pragma once

#include <cstdint>
#include <iterator>
#include <map>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "config/document.h"
#include "config/enums.h"
#include "util/error.h"
#include "util/units.h"

namespace dlbench::config {

// Throws UsageError("<path>: <what> (<origin>)").
[[noreturn]] void FailAt(const std::string& path, const DocNode& node, const std::string& what);

void Convert(const DocNode& node, const std::string& path, bool& out);
void Convert(const DocNode& node, const std::string& path, int& out);
void Convert(const DocNode& node, const std::string& path, std::int64_t& out);
void Convert(const DocNode& node, const std::string& path, Bytes& out);  // accepts units
void Convert(const DocNode& node, const std::string& path, double& out);
void Convert(const DocNode& node, const std::string& path, std::string& out);
void Convert(const DocNode& node, const std::string& path, std::optional<std::string>& out);
void Convert(const DocNode& node, const std::string& path, std::optional<Bytes>& out);
void Convert(const DocNode& node, const std::string& path, std::vector<std::int64_t>& out);
void Convert(const DocNode& node, const std::string& path, std::vector<std::string>& out);
void Convert(const DocNode& node, const std::string& path, std::map<std::string, std::string>& out);
// Shuffle also accepts every YAML 1.1 spelling of false (`off`, `no`, `false`) as off.
void Convert(const DocNode& node, const std::string& path, Shuffle& out);
// Preallocate accepts `auto` and every YAML 1.1 spelling of true and false.
void Convert(const DocNode& node, const std::string& path, Preallocate& out);

// An integer that DLIO allows to be written as a float (record_length_bytes_resize): floored,
// which keeps DLIO's int(sqrt(x)) unchanged.
std::int64_t ConvertFlooredInteger(const DocNode& node, const std::string& path);

std::string AllowedNames(const char* const* names, std::size_t count);
// "'npzz' is not one of tfrecord, ..., npz, ...; did you mean npz?" (the closest name when it is a
// plausible typo, as for unknown keys and workloads).
std::string NotOneOf(const DocNode& node, const char* const* names, std::size_t count);

template <typename E>
requires std::is_enum_v<E>
void Convert(const DocNode& node, const std::string& path, E& out) {
  constexpr std::size_t kCount = std::size(EnumNames<E>::kNames);
  const char* names[kCount];
  for (std::size_t i = 0; i < kCount; ++i) names[i] = EnumNames<E>::kNames[i].second;
  if (node.is_scalar()) {
    std::string lower = node.text;
    for (char& c : lower) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    if (auto value = FromString<E>(lower)) {
      out = *value;
      return;
    }
  }
  FailAt(path, node, NotOneOf(node, names, kCount));
}

template <typename E>
requires std::is_enum_v<E>
void Convert(const DocNode& node, const std::string& path, std::optional<E>& out) {
  if (node.is_null()) {
    out.reset();
    return;
  }
  E value{};
  Convert(node, path, value);
  out = value;
}

DocNode ToNode(bool value);
DocNode ToNode(int value);
DocNode ToNode(std::int64_t value);
DocNode ToNode(Bytes value);
DocNode ToNode(double value);
DocNode ToNode(const std::string& value);
DocNode ToNode(const std::optional<std::string>& value);
DocNode ToNode(const std::optional<Bytes>& value);
DocNode ToNode(const std::vector<std::int64_t>& value);
DocNode ToNode(const std::vector<std::string>& value);
DocNode ToNode(const std::map<std::string, std::string>& value);

template <typename E>
requires std::is_enum_v<E> DocNode ToNode(E value) { return DocNode::Scalar(ToString(value)); }

template <typename E>
requires std::is_enum_v<E> DocNode ToNode(const std::optional<E>& value) {
  return value ? ToNode(*value) : DocNode::Null();
}

}  // namespace dlbench::config
