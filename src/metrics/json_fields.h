// Setting JSON fields so that only finite numbers are ever written (DLIO can write NaN, which is
// not JSON): a value that is absent, NaN or infinite leaves the field out instead.
#pragma once

#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace dlbench::metrics {

using Json = nlohmann::ordered_json;  // keeps DLIO's field order

inline void SetNumber(Json& object, const std::string& key, std::optional<double> value) {
  if (value && std::isfinite(*value)) object[key] = *value;
}

// The whole list, or nothing when it is empty or holds a non-finite value.
inline void SetList(Json& object, const std::string& key, const std::vector<double>& values) {
  if (values.empty()) return;
  for (double v : values) {
    if (!std::isfinite(v)) return;
  }
  object[key] = values;
}

// A JSON object of a string-to-string map (host_cpuinfo, host_meminfo).
inline Json StringMap(const std::map<std::string, std::string>& map) {
  Json object = Json::object();
  for (const auto& [key, value] : map) object[key] = value;
  return object;
}

}  // namespace dlbench::metrics
