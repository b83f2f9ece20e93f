#include "sweep/sweep.h"

namespace dlbench::sweep {
namespace {

// The point at `accelerators`: from sweep.json when an earlier run completed it, else run now.
PointResult RunPoint(const SweepSettings& settings, SweepFile& file, const GridPoint& grid,
                     int accelerators, const RunFunction& run, const PointListener& listener) {
  if (std::optional<PointResult> done = file.find(grid, accelerators)) {
    listener(*done, /*resumed=*/true);
    return *done;
  }
  PointResult point;
  point.grid = grid;
  point.accelerators = accelerators;
  point.folder = PointFolder(grid, accelerators);
  for (int i = 1; i <= settings.repeat; ++i) {
    RunRequest request{grid, accelerators, i, point.folder + "/run-" + std::to_string(i)};
    point.runs.push_back(run(request));
    if (point.runs.back().exit_code != 0 && settings.stop_on_error) break;
  }
  Judge(point, file.threshold_percent());
  file.add(point);
  file.save();
  listener(point, /*resumed=*/false);
  return point;
}

bool Stops(const SweepSettings& settings, const PointResult& point) {
  return settings.stop_on_error && point.verdict == Verdict::kError;
}

}  // namespace

std::string PointFolder(const GridPoint& grid, int accelerators) {
  const std::string name = "accelerators-" + std::to_string(accelerators);
  return grid.empty() ? name : GridFolderName(grid) + "/" + name;
}

SweepResult RunSweep(const SweepSettings& settings, SweepFile& file, const RunFunction& run,
                     const PointListener& listener) {
  SweepResult result;
  file.set_complete(false);
  file.save();
  for (const GridPoint& grid : ExpandGrid(settings.grid)) {
    if (!settings.max_accelerators) {
      result.points.push_back(RunPoint(settings, file, grid, settings.accelerators, run, listener));
      if (Stops(settings, result.points.back())) {
        result.stopped = true;
        break;
      }
      continue;
    }
    const SearchResult search = FindMaxAccelerators(*settings.max_accelerators, [&](int count) {
      result.points.push_back(RunPoint(settings, file, grid, count, run, listener));
      const PointResult& point = result.points.back();
      if (Stops(settings, point)) return Probe::kStop;
      return point.verdict == Verdict::kPass ? Probe::kPass : Probe::kFail;
    });
    result.searches.push_back({grid, search});
    file.set_searches(result.searches);
    file.save();
    if (search.stopped) {
      result.stopped = true;
      break;
    }
  }
  file.set_complete(!result.stopped);
  file.save();
  return result;
}

}  // namespace dlbench::sweep
