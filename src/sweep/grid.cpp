#include "sweep/grid.h"

#include <algorithm>
#include <cctype>

#include "util/error.h"

namespace dlbench::sweep {
namespace {

std::string WorkloadKey(std::string key) {
  for (const char* prefix : {"++", "+"}) {
    if (key.rfind(prefix, 0) == 0) {
      key.erase(0, std::string(prefix).size());
      break;
    }
  }
  if (key.rfind("workload.", 0) == 0) key.erase(0, 9);
  return key;
}

std::string JoinPoint(const GridPoint& point, const std::string& separator, bool safe) {
  std::string text;
  for (const GridValue& value : point) {
    if (!text.empty()) text += separator;
    text += value.key + "=" + value.value;
  }
  if (safe) {
    for (char& c : text) {
      const bool allowed = std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '.' ||
                           c == '_' || c == '=' || c == '-' || c == ',';
      if (!allowed) c = '_';
    }
  }
  return text;
}

}  // namespace

GridAxis ParseGridAxis(const std::string& argument) {
  const std::size_t equals = argument.find('=');
  if (equals == std::string::npos) {
    throw UsageError("--grid '" + argument + "': expected KEY=V1,V2,... (e.g. " +
                     "reader.read_threads=4,8,16)");
  }
  GridAxis axis;
  axis.key = WorkloadKey(argument.substr(0, equals));
  if (axis.key.empty()) throw UsageError("--grid '" + argument + "': the key is empty");
  const std::string values = argument.substr(equals + 1);
  std::size_t at = 0;
  while (true) {
    const std::size_t comma = values.find(',', at);
    const std::string value = values.substr(at, comma == std::string::npos ? comma : comma - at);
    if (value.empty()) {
      throw UsageError("--grid '" + argument + "': empty value (values are separated by ',')");
    }
    if (std::find(axis.values.begin(), axis.values.end(), value) != axis.values.end()) {
      throw UsageError("--grid '" + argument + "': value '" + value + "' is given twice");
    }
    axis.values.push_back(value);
    if (comma == std::string::npos) break;
    at = comma + 1;
  }
  return axis;
}

std::vector<GridPoint> ExpandGrid(const std::vector<GridAxis>& axes) {
  for (std::size_t i = 0; i < axes.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      if (axes[i].key == axes[j].key) {
        throw UsageError("--grid: key '" + axes[i].key + "' is given twice");
      }
    }
  }
  std::vector<GridPoint> points{GridPoint{}};
  for (const GridAxis& axis : axes) {
    std::vector<GridPoint> next;
    for (const GridPoint& point : points) {
      for (const std::string& value : axis.values) {
        GridPoint extended = point;
        extended.push_back({axis.key, value});
        next.push_back(std::move(extended));
      }
    }
    points = std::move(next);
  }
  return points;
}

std::vector<std::string> GridOverrides(const GridPoint& point) {
  std::vector<std::string> overrides;
  for (const GridValue& value : point) {
    overrides.push_back("++workload." + value.key + "=" + value.value);
  }
  return overrides;
}

std::string GridFolderName(const GridPoint& point) { return JoinPoint(point, ",", true); }

std::string GridLabel(const GridPoint& point) { return JoinPoint(point, " ", false); }

}  // namespace dlbench::sweep
