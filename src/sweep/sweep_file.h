// sweep.json, the record of a sweep, rewritten (atomically) after every point so that an
// interrupted sweep rerun with the same arguments keeps its completed points:
//   arguments                 what makes two sweeps the same (a rerun with others is refused)
//   au_threshold_percentage   100 x metric.au
//   complete                  every point ran (false while running, or after --stop-on-error)
//   max_accelerators          the answer (the largest over grid points); null without a search
//   searches                  per grid point: max_accelerators, first_failure, stopped
//   points                    in the order they ran (sweep/point.h's PointToJson)
// plus what the command adds (set()): the workload, the dataset it sized and generated.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "sweep/point.h"
#include "sweep/search.h"
#include "util/file_names.h"

namespace dlbench::sweep {

struct GridSearch {
  GridPoint grid;
  SearchResult search;
};

class SweepFile {
 public:
  static constexpr const char* kName = file_names::kSweep;

  // The record in `folder` (created if missing): a new one, or the existing sweep.json when its
  // arguments are `arguments`. Throws Error(kUsage) (exit 2) when the folder holds a sweep.json
  // of other arguments (naming the first that differs) or one that is not a sweep's.
  static SweepFile Open(const std::filesystem::path& folder, const Json& arguments,
                        double threshold_percent);
  // Reads an existing sweep.json (for `dlbench report`). Error(kIo) if it cannot be read,
  // Error(kUsage) if it is not a sweep's.
  static SweepFile Load(const std::filesystem::path& file);

  const std::filesystem::path& folder() const { return folder_; }
  const Json& document() const { return document_; }
  double threshold_percent() const;
  std::vector<PointResult> points() const;
  std::vector<GridSearch> searches() const;
  // A completed point of this grid point and count, from this or an interrupted run.
  std::optional<PointResult> find(const GridPoint& grid, int accelerators) const;

  void add(const PointResult& point);
  void set_searches(const std::vector<GridSearch>& searches);
  void set_complete(bool complete);
  void set(const std::string& key, const Json& value);
  // Writes sweep.json through a temporary file and a rename.
  void save() const;

 private:
  std::filesystem::path folder_;
  Json document_;
};

}  // namespace dlbench::sweep
