#include "sweep/sweep_table.h"

#include <algorithm>
#include <cstdio>

namespace dlbench::sweep {
namespace {

constexpr int kGridWidth = 28;

std::string Printf(const char* format, auto... values) {
  char text[256];
  std::snprintf(text, sizeof(text), format, values...);
  return text;
}

std::string Percent(const std::optional<double>& value) {
  return value ? Printf("%.2f", *value) : "n/a";
}

std::string Spread(const PointResult& point) {
  if (!point.au_min_percent) return "";
  return Printf("%.2f..%.2f", *point.au_min_percent, *point.au_max_percent);
}

std::string GridColumn(std::string label) {
  if (label.size() < kGridWidth) label.resize(kGridWidth, ' ');
  return label + " ";
}

const PointResult* Find(const std::vector<PointResult>& points, const GridPoint& grid, int count) {
  for (const PointResult& point : points) {
    if (point.grid == grid && point.accelerators == count) return &point;
  }
  return nullptr;
}

std::string Describe(const PointResult& point) {
  if (point.verdict == Verdict::kError) return "failed (" + point.error + ")";
  if (point.verdict == Verdict::kUnmeasured) return "measured no step";
  return "median AU " + Percent(point.au_median_percent) + " %";
}

}  // namespace

std::string TableHeader(bool with_grid) {
  return (with_grid ? GridColumn("grid") : "") +
         Printf("%12s %4s %10s %15s %12s %11s  %s\n", "accelerators", "runs", "AU median",
                "AU min..max", "samples/s", "read MiB/s", "verdict");
}

std::string TableRow(const PointResult& point, bool with_grid, bool resumed) {
  std::string row = with_grid ? GridColumn(GridLabel(point.grid)) : "";
  row += Printf("%12d %4zu %10s %15s %12.1f %11.1f  %s", point.accelerators, point.runs.size(),
                Percent(point.au_median_percent).c_str(), Spread(point).c_str(),
                point.samples_per_second, point.read_MiB_per_second, VerdictName(point.verdict));
  if (point.verdict == Verdict::kError) row += ": " + point.error;
  if (point.verdict == Verdict::kUnmeasured) {
    row += ": no step measured (too few steps per rank for the exclusions)";
  }
  if (resumed) row += " (kept from sweep.json)";
  return row + "\n";
}

std::string FinalTable(const std::vector<PointResult>& points, bool with_grid) {
  std::vector<GridPoint> order;
  for (const PointResult& point : points) {
    if (std::find(order.begin(), order.end(), point.grid) == order.end()) {
      order.push_back(point.grid);
    }
  }
  std::vector<const PointResult*> sorted;
  for (const PointResult& point : points) sorted.push_back(&point);
  std::stable_sort(sorted.begin(), sorted.end(), [&](const PointResult* a, const PointResult* b) {
    const auto rank = [&](const PointResult* p) {
      return std::find(order.begin(), order.end(), p->grid) - order.begin();
    };
    if (rank(a) != rank(b)) return rank(a) < rank(b);
    return a->accelerators < b->accelerators;
  });
  std::string text = TableHeader(with_grid);
  for (const PointResult* point : sorted) text += TableRow(*point, with_grid);
  return text;
}

std::string AnswerLines(const std::string& workload, const SweepResult& result,
                        double threshold_percent, int repeat) {
  std::string text;
  const std::string runs = repeat == 1 ? "1 run" : std::to_string(repeat) + " runs";
  for (const GridSearch& entry : result.searches) {
    const SearchResult& search = entry.search;
    std::string line = workload;
    if (!entry.grid.empty()) line += " [" + GridLabel(entry.grid) + "]";
    if (search.max_passing == 0) {
      line += Printf(": no count of accelerators meets AU >= %.4g %%", threshold_percent);
    } else {
      const PointResult* best = Find(result.points, entry.grid, search.max_passing);
      line += Printf(": %d accelerator(s) per host meet AU >= %.4g %% (median AU %s %% over %s)",
                     search.max_passing, threshold_percent,
                     best ? Percent(best->au_median_percent).c_str() : "?", runs.c_str());
    }
    if (search.first_failure) {
      const PointResult* failed = Find(result.points, entry.grid, *search.first_failure);
      if (failed) line += Printf("; %d: %s", *search.first_failure, Describe(*failed).c_str());
    } else if (search.max_passing > 0 && !search.stopped) {
      // The search stops at --max-accelerators: with no count failed, the host's limit is higher.
      line += "; every count tried passed, up to --max-accelerators: a lower bound (raise it)";
    }
    if (search.stopped) line += "; stopped early (--stop-on-error): a lower bound";
    text += line + "\n";
  }
  if (result.searches.empty()) {
    const PointResult* best = nullptr;
    for (const PointResult& point : result.points) {
      if (point.au_median_percent &&
          (!best || *point.au_median_percent > *best->au_median_percent)) {
        best = &point;
      }
    }
    if (best) {
      text += workload + ": highest median AU " + Percent(best->au_median_percent) + " % at " +
              (best->grid.empty() ? "" : GridLabel(best->grid) + ", ") +
              std::to_string(best->accelerators) + " accelerator(s) per host (" +
              VerdictName(best->verdict) + ")\n";
    } else {
      text += workload + ": no point measured AU\n";
    }
  }
  return text;
}

}  // namespace dlbench::sweep
