// What `dlbench sweep` prints: a row per point while it runs, the whole table sorted by grid
// point and count at the end, and the answer in one line.
#pragma once

#include <string>
#include <vector>

#include "sweep/point.h"
#include "sweep/sweep.h"

namespace dlbench::sweep {

// The header of the table (with a grid column when `with_grid`).
std::string TableHeader(bool with_grid);
// One point: grid values, accelerators, runs, AU median and min..max, samples/s, read MiB/s,
// verdict (an error's message after it; "(kept from sweep.json)" when `resumed`).
std::string TableRow(const PointResult& point, bool with_grid, bool resumed = false);
// Every point, sorted by grid point (in the grid's order) and count.
std::string FinalTable(const std::vector<PointResult>& points, bool with_grid);

// The answer: per search, "WORKLOAD [grid]: N accelerators per host meet AU >= T % (median AU
// M % over K runs; N+1 gave ...)", or why no count did; for a grid without a search, the point
// with the highest median AU. One line per grid point.
std::string AnswerLines(const std::string& workload, const SweepResult& result,
                        double threshold_percent, int repeat);

}  // namespace dlbench::sweep
