// `dlbench sweep`'s logic without processes: for every grid point, either the search for the
// most accelerators meeting the AU threshold (sweep/search.h) or one fixed count; each point run
// `repeat` times through an injected function (the command launches jobs; tests script AU), its
// result recorded in sweep.json after every point (sweep/sweep_file.h) and reused on a rerun.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "sweep/grid.h"
#include "sweep/point.h"
#include "sweep/sweep_file.h"

namespace dlbench::sweep {

struct SweepSettings {
  std::vector<GridAxis> grid;
  std::optional<int> max_accelerators;  // per host; set: search 1..max at every grid point
  int accelerators = 1;                 // per host, without a search
  int repeat = 1;                       // runs per point
  bool stop_on_error = false;           // a failed run ends the sweep (else: the point fails)
};

// One run to make: the grid point at `accelerators` per host, run `run` of `repeat` (from 1),
// into `folder` (relative to the sweep folder: [GRID/]accelerators-N/run-I).
struct RunRequest {
  GridPoint grid;
  int accelerators = 0;
  int run = 1;
  std::string folder;
};
// Makes the run and returns its outcome (a failed job is an outcome, exit_code != 0). May
// throw dlbench::Error for a failure of the sweep itself (the launcher cannot be started): the
// sweep ends there, its completed points recorded.
using RunFunction = std::function<RunOutcome(const RunRequest&)>;
// Told about every point when it is known: `resumed` when it came from sweep.json.
using PointListener = std::function<void(const PointResult&, bool resumed)>;

struct SweepResult {
  std::vector<PointResult> points;   // in the order they were reached
  std::vector<GridSearch> searches;  // with a search: one per grid point
  bool stopped = false;              // --stop-on-error ended it early
};

// "[GRID/]accelerators-N" for a point.
std::string PointFolder(const GridPoint& grid, int accelerators);

// Runs the sweep, recording into `file` (saved after every point, and complete at the end).
SweepResult RunSweep(const SweepSettings& settings, SweepFile& file, const RunFunction& run,
                     const PointListener& listener);

}  // namespace dlbench::sweep
