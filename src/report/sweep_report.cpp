#include "report/sweep_report.h"

#include <algorithm>
#include <limits>

#include "report/page.h"
#include "report/svg_charts.h"
#include "sweep/sweep_table.h"

namespace dlbench::report {
namespace {

std::string Label(const sweep::GridPoint& grid) {
  const std::string label = sweep::GridLabel(grid);
  return label.empty() ? "all" : label;
}

// One series per grid point: `value` against the count, in increasing count.
std::vector<Series> ByCount(const std::vector<sweep::PointResult>& points,
                            double (*value)(const sweep::PointResult&)) {
  std::vector<sweep::GridPoint> order;
  std::vector<Series> series;
  for (const sweep::PointResult& point : points) {
    auto at = std::find(order.begin(), order.end(), point.grid);
    if (at == order.end()) {
      order.push_back(point.grid);
      series.push_back({Label(point.grid), {}, {}});
      at = order.end() - 1;
    }
    Series& line = series[static_cast<std::size_t>(at - order.begin())];
    const double y = value(point);
    if (y < 0) continue;  // nothing measured
    const auto x = static_cast<double>(point.accelerators);
    const auto before = std::lower_bound(line.x.begin(), line.x.end(), x);
    line.y.insert(line.y.begin() + (before - line.x.begin()), y);
    line.x.insert(before, x);
  }
  return series;
}

double MedianAu(const sweep::PointResult& point) {
  return point.au_median_percent ? *point.au_median_percent : -1;
}
double Samples(const sweep::PointResult& point) {
  return point.verdict == sweep::Verdict::kError ? -1 : point.samples_per_second;
}
double ReadRate(const sweep::PointResult& point) {
  return point.verdict == sweep::Verdict::kError ? -1 : point.read_MiB_per_second;
}

// A bar's value; nothing drawn (NaN) for a point that measured nothing.
double Drawn(double value) { return value < 0 ? std::numeric_limits<double>::quiet_NaN() : value; }

std::string SearchCharts(const std::vector<sweep::PointResult>& points, double threshold) {
  std::vector<Series> au = ByCount(points, MedianAu);
  double low = 1, high = 1;
  for (const sweep::PointResult& point : points) {
    high = std::max(high, static_cast<double>(point.accelerators));
  }
  au.push_back({"threshold", {low, high}, {threshold, threshold}});
  return LineChart("Median AU", "accelerators per host", "AU %", au) +
         LineChart("Throughput", "accelerators per host", "samples/s", ByCount(points, Samples)) +
         LineChart("Read rate", "accelerators per host", "MiB/s", ByCount(points, ReadRate));
}

std::string GridCharts(const std::vector<sweep::PointResult>& points) {
  std::vector<std::string> categories;
  Series au{"median AU", {}, {}}, samples{"samples/s", {}, {}}, read{"read MiB/s", {}, {}};
  for (const sweep::PointResult& point : points) {
    categories.push_back(Label(point.grid) + " @" + std::to_string(point.accelerators));
    au.y.push_back(Drawn(MedianAu(point)));
    samples.y.push_back(Drawn(Samples(point)));
    read.y.push_back(Drawn(ReadRate(point)));
  }
  return BarChart("Median AU", "AU %", categories, {au}) +
         BarChart("Throughput", "samples/s", categories, {samples}) +
         BarChart("Read rate", "MiB/s", categories, {read});
}

}  // namespace

std::string BuildSweepReport(const sweep::SweepFile& sweep) {
  const std::vector<sweep::PointResult> points = sweep.points();
  const sweep::Json& document = sweep.document();
  const std::string workload = document.value("workload", std::string("workload"));
  const bool searched = !document["searches"].empty();
  const bool with_grid = std::any_of(points.begin(), points.end(),
                                     [](const sweep::PointResult& p) { return !p.grid.empty(); });
  sweep::SweepResult result;
  result.points = points;
  result.searches = sweep.searches();
  std::string html = PageStart("dlbench sweep: " + workload);
  html += "<p>" +
          Escape(sweep::AnswerLines(workload, result, sweep.threshold_percent(),
                                    document["arguments"].value("repeat", 1))) +
          "</p>\n";
  if (!document.value("complete", false)) {
    html +=
        "<p class=\"bad\">The sweep is not complete (interrupted or stopped at an error): "
        "rerun the same command to finish it.</p>\n";
  }
  html += "<p class=\"note\">" + Escape(sweep.folder().string()) + "</p>\n";
  html += "<div class=\"charts\">" +
          (searched ? SearchCharts(points, sweep.threshold_percent()) : GridCharts(points)) +
          "</div>\n";
  html += "<h2>Points</h2>\n<pre>" + Escape(sweep::FinalTable(points, with_grid)) + "</pre>\n";
  return html + PageEnd();
}

}  // namespace dlbench::report
