// Renders a checkpoint byte plan for `dlbench checkpoint plan WORKLOAD [--ranks N]`: totals in
// bytes and GiB, file counts, distinct file sizes, ranks grouped by identical files, and the size
// DLIO would report beside it. Returns text; the app prints it.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "checkpoint/plan.h"
#include "util/units.h"

namespace dlbench::checkpoint {

struct PlanReportOptions {
  std::string title;                // e.g. the workload name
  std::size_t max_groups = 12;      // rank groups listed before "... and N more"
  std::size_t max_files_shown = 8;  // files listed per group
  std::size_t max_rank_ranges = 6;  // "0-7, 256-511, ..." ranges listed per group
};

std::string RenderPlan(const CheckpointPlan& plan, const PlanReportOptions& options = {});

// Ascending ranks as ranges: {0,1,2,3,8} -> "0-3, 8"; at most `max_ranges`, then "... (N more)".
std::string FormatRankRanges(const std::vector<Rank>& ranks, std::size_t max_ranges);

}  // namespace dlbench::checkpoint
