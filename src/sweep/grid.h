// The parameter grid of `dlbench sweep --grid KEY=V1,V2,...`: every combination of the axes'
// values is one grid point, run with ++workload.KEY=V overrides into its own folder.
#pragma once

#include <string>
#include <vector>

namespace dlbench::sweep {

struct GridAxis {
  std::string key;  // a workload key, e.g. reader.read_threads (no "workload." prefix)
  std::vector<std::string> values;
};

struct GridValue {
  std::string key;
  std::string value;
  bool operator==(const GridValue&) const = default;
};
using GridPoint = std::vector<GridValue>;  // one value per axis, in the axes' order

// Parses "KEY=V1,V2,...". KEY may be written as an override's key ("workload.reader.x",
// "++workload.reader.x"). Throws Error(kUsage) naming the argument for a missing '=', an empty
// key or value, or a value given twice.
GridAxis ParseGridAxis(const std::string& argument);

// Every combination, the last axis changing fastest; one empty point when there are no axes.
// Throws Error(kUsage) when two axes have the same key.
std::vector<GridPoint> ExpandGrid(const std::vector<GridAxis>& axes);

// "++workload.KEY=V" for each value of the point.
std::vector<std::string> GridOverrides(const GridPoint& point);

// The point's folder name: "KEY=V,KEY=V" with characters other than letters, digits and ._=-
// replaced by '_'; "" for the empty point.
std::string GridFolderName(const GridPoint& point);

// "KEY=V KEY=V" for tables; "" for the empty point.
std::string GridLabel(const GridPoint& point);

}  // namespace dlbench::sweep
