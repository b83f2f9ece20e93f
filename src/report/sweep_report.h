// `dlbench report SWEEP_DIR`: the page of a sweep (sweep.json): median AU with the threshold,
// and throughput and read rate, against the swept count of accelerators (one line per grid
// point) or, for a grid without a search, against the grid points; and the table of points.
#pragma once

#include <string>

#include "sweep/sweep_file.h"

namespace dlbench::report {

std::string BuildSweepReport(const sweep::SweepFile& sweep);

}  // namespace dlbench::report
