#include "report/html_report.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <string_view>
#include <system_error>

#include "compare/metric_spec.h"
#include "compare/unmeasured.h"
#include "metrics/json_fields.h"
#include "report/insights_html.h"
#include "report/io_charts.h"
#include "report/page.h"
#include "report/request_table.h"
#include "report/svg_charts.h"
#include "util/file_names.h"

namespace dlbench::report {
namespace fs = std::filesystem;
namespace {

using Json = metrics::Json;

constexpr std::size_t kMaxTimelineSteps = 400;  // per rank, so the SVG stays small

std::vector<double> Numbers(const Json* node) {
  std::vector<double> values;
  if (node && node->is_number()) values.push_back(node->get<double>());
  if (node && node->is_array()) {
    for (const Json& v : *node) {
      if (v.is_number()) values.push_back(v.get<double>());
    }
  }
  return values;
}

// The number or list of numbers at a dotted path of summary.json (empty when absent).
std::vector<double> List(const Json& summary, const std::string& path) {
  return Numbers(compare::FindPath(summary, path));
}

// The last `parts` components of the run's folder ("run-1", then "base/run-1").
std::string FolderTail(const compare::Run& run, std::size_t parts) {
  std::vector<std::string> names;
  for (const fs::path& part : fs::path(run.source).parent_path()) names.push_back(part.string());
  std::string tail;
  for (std::size_t i = names.size() > parts ? names.size() - parts : 0; i < names.size(); ++i) {
    tail += (tail.empty() || tail == "/" ? "" : "/") + names[i];
  }
  return tail;
}

// Each run's name in the page: its folder's name, or as many of the folder's last components as
// tell the runs apart — two `--repeat` sets both have run-1 .. run-N: base/run-1, cur/run-1.
std::vector<std::string> RunLabels(const std::vector<compare::Run>& runs) {
  std::vector<std::string> labels(runs.size());
  for (std::size_t parts = 1; parts <= 64; ++parts) {
    for (std::size_t i = 0; i < runs.size(); ++i) labels[i] = FolderTail(runs[i], parts);
    std::vector<std::string> sorted = labels;
    std::sort(sorted.begin(), sorted.end());
    if (std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end()) break;
  }
  return labels;
}

// A run whose summary.json says it did not complete (compare/run_set.h IncompleteRunNote): its
// numbers are those of the phases that ended before it stopped.
std::string IncompleteNote(const compare::Run& run, const std::string& label) {
  const std::string note = compare::IncompleteRunNote(run.summary);
  if (note.empty()) return "";
  return "<p class=\"bad\"><strong>Incomplete run</strong> " + Escape(label) + ": " + Escape(note) +
         ". Its numbers cover only the phases that ended before.</p>\n";
}

// <rank>_output.json files of the run's folder, by rank.
std::vector<std::pair<int, Json>> RankOutputs(const compare::Run& run) {
  std::vector<std::pair<int, Json>> outputs;
  const fs::path folder = fs::path(run.source).parent_path();
  std::error_code error;
  for (fs::directory_iterator it(folder, error), end; !error && it != end; it.increment(error)) {
    const std::string name = it->path().filename().string();
    const std::string suffix = file_names::kRankOutput;
    if (name.size() <= suffix.size() ||
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0)
      continue;
    // "<rank>_output.json" with a rank that is an int: no other file is a rank's
    const std::string_view digits(name.data(), name.size() - suffix.size());
    int rank = 0;
    const auto [end_of_rank, parsed] =
        std::from_chars(digits.data(), digits.data() + digits.size(), rank);
    if (digits.empty() || digits.front() == '-' || parsed != std::errc() ||
        end_of_rank != digits.data() + digits.size())
      continue;
    outputs.emplace_back(rank, compare::ReadJsonObject(it->path().string()));
  }
  std::sort(outputs.begin(), outputs.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  return outputs;
}

// The epochs whose `values` measured something: those of `spec`'s unmeasured_when_zero list that
// are 0 (compare/unmeasured.h) are left out, and `left_out` gets their count.
Series MeasuredEpochs(const std::string& name, const std::vector<double>& values,
                      const compare::MetricSpec& spec, const Json& summary, int* left_out) {
  const std::vector<bool> unmeasured = compare::UnmeasuredEntries(spec, summary);
  Series series{name, {}, {}};
  for (std::size_t e = 0; e < values.size(); ++e) {
    if (e < unmeasured.size() && unmeasured[e]) {
      ++*left_out;
      continue;
    }
    series.x.push_back(static_cast<double>(e + 1));
    series.y.push_back(values[e]);
  }
  return series;
}

// Per-epoch AU and throughput. An epoch's AU with no measured step, and DLIO's rate of an epoch of
// blocks of at most 2 steps, are 0 in summary.json: drawn, they would read as an accelerator that
// waited all the time or storage that delivered nothing, so they are left out with a note.
std::string EpochCharts(const compare::Run& run) {
  const std::vector<double> au = List(run.summary, "metric.train_au_percentage");
  if (au.empty()) return "";
  const compare::MetricSpec au_spec = compare::HeadlineMetric("metric.train_au_mean_percentage");
  const compare::MetricSpec dlio_spec =
      compare::HeadlineMetric("metric.train_throughput_mean_samples_per_second");
  int au_left_out = 0, rate_left_out = 0;
  std::vector<Series> au_series;
  for (const auto& [name, path] : {std::pair{"mean over ranks", "metric.train_au_percentage"},
                                   std::pair{"min rank", "metric.train_au_min_percentage"},
                                   std::pair{"max rank", "metric.train_au_max_percentage"}}) {
    const auto values = List(run.summary, path);
    int left_out = 0;
    if (values.size() == au.size())
      au_series.push_back(MeasuredEpochs(name, values, au_spec, run.summary, &left_out));
    au_left_out = std::max(au_left_out, left_out);
  }
  std::vector<Series> rate;
  const auto dlio = List(run.summary, "metric.train_throughput_samples_per_second");
  if (dlio.size() == au.size())
    rate.push_back(MeasuredEpochs("DLIO", dlio, dlio_spec, run.summary, &rate_left_out));
  const auto exact = List(run.summary, "metric.train_throughput_samples_per_second_exact");
  if (exact.size() == au.size()) {
    // The exact rates are listed only when every epoch measured a step (metrics/summary.cpp).
    Series series{"measured steps", {}, {}};
    for (std::size_t e = 0; e < exact.size(); ++e) {
      series.x.push_back(static_cast<double>(e + 1));
      series.y.push_back(exact[e]);
    }
    rate.push_back(std::move(series));
  }
  std::string charts;
  if (!au_series.empty() && !au_series.front().x.empty())
    charts += LineChart("AU per epoch", "epoch", "AU %", au_series);
  if (au_left_out > 0) {
    charts += "<p class=\"note\">AU: " + std::to_string(au_left_out) +
              " epoch(s) not drawn, n/a: " + Escape(au_spec.unmeasured_reason) + ".</p>";
  }
  rate.erase(std::remove_if(rate.begin(), rate.end(), [](const Series& s) { return s.x.empty(); }),
             rate.end());
  if (!rate.empty())
    charts += LineChart("Training throughput per epoch", "epoch", "samples/s", rate);
  if (rate_left_out > 0) {
    charts += "<p class=\"note\">DLIO throughput: " + std::to_string(rate_left_out) +
              " epoch(s) not drawn, n/a: " + Escape(dlio_spec.unmeasured_reason) + ".</p>";
  }
  return charts;
}

// Steps of the first epoch's first block laid end to end per rank (load, compute, barrier).
std::string RankCharts(const std::vector<std::pair<int, Json>>& outputs) {
  std::vector<std::string> rows;
  std::vector<Segment> segments;
  Series load_time{"load wait", {}, {}}, compute{"compute", {}, {}}, barrier{"barrier", {}, {}};
  for (std::size_t r = 0; r < outputs.size(); ++r) {
    const Json& out = outputs[r].second;
    const Json* load = compare::FindPath(out, "1.load");
    if (!load || !load->is_object() || load->empty()) continue;
    const Json& epoch = out.at("1");
    const std::string block = load->contains("block1") ? "block1" : load->begin().key();
    const auto l = Numbers(compare::FindPath(epoch, "load." + block));
    const auto c = Numbers(compare::FindPath(epoch, "compute." + block));
    const auto b = Numbers(compare::FindPath(epoch, "barrier." + block));
    rows.push_back("rank " + std::to_string(outputs[r].first));
    double t = 0, sum_l = 0, sum_c = 0, sum_b = 0;
    for (std::size_t i = 0; i < l.size() && i < c.size(); ++i) {
      const double bi = i < b.size() ? b[i] : 0;
      if (i < kMaxTimelineSteps) {
        segments.push_back({rows.size() - 1, t, l[i], 0});
        segments.push_back({rows.size() - 1, t + l[i], c[i], 1});
        segments.push_back({rows.size() - 1, t + l[i] + c[i], bi, 2});
      }
      t += l[i] + c[i] + bi;
      sum_l += l[i];
      sum_c += c[i];
      sum_b += bi;
    }
    load_time.y.push_back(sum_l);
    compute.y.push_back(sum_c);
    barrier.y.push_back(sum_b);
  }
  if (rows.empty() || segments.empty()) return "";
  return Timeline("Step timeline, epoch 1 (steps end to end)", "seconds", rows,
                  {"load wait", "compute", "barrier"}, segments) +
         BarChart("Per-rank time in epoch 1", "seconds", rows, {load_time, compute, barrier});
}

// A run without a burst buffer drains nothing and has no drain time: its bar is left out (NaN),
// not drawn as a drain of 0 s, and a note says so.
std::string CheckpointChart(const std::vector<compare::Run>& runs,
                            const std::vector<std::string>& labels) {
  constexpr double kNotMeasured = std::numeric_limits<double>::quiet_NaN();
  std::vector<std::string> names;
  Series stall{"stall (mean)", {}, {}}, drain{"drain (mean)", {}, {}},
      durable{"durable (mean)", {}, {}};
  int without_drain = 0;
  for (std::size_t r = 0; r < runs.size(); ++r) {
    const compare::Run& run = runs[r];
    const auto s = List(run.summary, "metric.checkpoint_stall_mean_seconds");
    if (s.empty()) continue;
    names.push_back(labels[r]);
    stall.y.push_back(s[0]);
    const auto drained = List(run.summary, "metric.checkpoint_drained_bytes");
    const auto rate = List(run.summary, "metric.checkpoint_drain_GiB_per_second");
    const auto saves = List(run.summary, "metric.save_checkpoint_duration_max_seconds");
    const bool drains = !drained.empty() && !rate.empty() && rate[0] > 0 && !saves.empty();
    without_drain += drains ? 0 : 1;
    drain.y.push_back(drains ? drained[0] / (rate[0] * 1073741824.0) /
                                   static_cast<double>(saves.size())
                             : kNotMeasured);
    const auto d = List(run.summary, "metric.checkpoint_time_to_durable_mean_seconds");
    durable.y.push_back(d.empty() ? kNotMeasured : d[0]);
  }
  if (names.empty()) return "";
  std::string chart = BarChart("Checkpoint: stall, drain and time to durable", "seconds", names,
                               {stall, drain, durable});
  if (without_drain > 0) {
    chart += "<p class=\"note\">Drain: not drawn for " + std::to_string(without_drain) +
             " run(s) without a burst buffer (nothing drained).</p>";
  }
  return chart;
}

// One row of the headline table: the metric at `path` in each run, with the change against the
// first run. A run that holds it without having measured it (compare/unmeasured.h; `unmeasured`
// set) shows "n/a" and its reason, never its 0. Empty when no run has the metric.
std::string MetricsRow(const std::vector<compare::Run>& runs, const std::string& label,
                       const std::string& path, compare::Direction direction,
                       const compare::MetricSpec* unmeasured) {
  std::string row =
      "<tr><td>" + Escape(label) + "</td><td>" + compare::DirectionName(direction) + "</td>";
  std::optional<double> first;
  bool any = false;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const auto value = compare::MetricValue(runs[i].summary, path, runs[i].source);
    if (!value) {
      row += "<td>-</td>";
      continue;
    }
    any = true;
    const std::string reason =
        unmeasured ? compare::UnmeasuredReason(*unmeasured, runs[i].summary) : "";
    if (!reason.empty()) {
      row += "<td title=\"" + Escape(reason) + "\">n/a</td>";
      continue;
    }
    std::string cell = Num(*value);
    if (i == 0) first = value;
    if (i > 0 && first && *first != 0) {
      const double change = *value / *first - 1;
      const bool worse = direction == compare::Direction::kHigherIsBetter ? change < 0 : change > 0;
      char text[32];
      std::snprintf(text, sizeof text, " (%+.1f%%)", change * 100);
      cell += std::string(" <span class=\"") + (worse ? "bad" : "good") + "\">" + text + "</span>";
    }
    row += "<td>" + cell + "</td>";
  }
  return any ? row + "</tr>" : "";
}

std::string MetricsTable(const std::vector<compare::Run>& runs,
                         const std::vector<std::string>& labels) {
  std::string html = "<table><tr><th>metric</th><th>better</th>";
  for (const std::string& label : labels) html += "<th>" + Escape(label) + "</th>";
  html += "</tr>";
  std::string notes;
  for (const compare::MetricSpec& spec : compare::HeadlineMetrics()) {
    html += MetricsRow(runs, spec.label, spec.path, spec.direction, &spec);
    const auto unmeasured = std::find_if(runs.begin(), runs.end(), [&](const compare::Run& run) {
      return compare::IsUnmeasured(spec, run.summary);
    });
    if (unmeasured == runs.end()) continue;
    // As `dlbench compare` does: the number that replaces it, when the runs have it.
    const std::string fallback =
        spec.fallback_path.empty()
            ? ""
            : MetricsRow(runs, spec.label + " exact", spec.fallback_path, spec.direction, nullptr);
    html += fallback;
    notes += "<li>" + Escape(spec.label) + ": n/a where " +
             Escape(compare::UnmeasuredReason(spec, unmeasured->summary)) +
             (fallback.empty() ? "" : "; the exact rate of the measured steps instead") + ".</li>";
  }
  html += "</table>\n";
  if (!notes.empty()) html += "<ul class=\"note\">" + notes + "</ul>\n";
  return html;
}

}  // namespace

std::string BuildHtmlReport(const std::vector<compare::Run>& runs, const std::string& comparison) {
  std::string html = PageStart("dlbench report");
  const std::vector<std::string> labels = RunLabels(runs);
  html += InsightsSection(runs, labels);
  html += "<h2>Headline metrics</h2>\n";
  if (runs.size() > 1) {
    html +=
        "<p class=\"note\">Changes are against the first run. For a statistical verdict over "
        "sets of repeated runs use <code>dlbench compare</code>.</p>\n";
  }
  for (std::size_t r = 0; r < runs.size(); ++r) html += IncompleteNote(runs[r], labels[r]);
  html += MetricsTable(runs, labels);
  if (!comparison.empty()) {
    html += "<h2>dlbench compare</h2>\n<pre class=\"compare\">" + Escape(comparison) + "</pre>\n";
  }
  const std::string checkpoint = CheckpointChart(runs, labels);
  if (!checkpoint.empty())
    html += "<h2>Checkpoints</h2>\n<div class=\"charts\">" + checkpoint + "</div>\n";
  for (std::size_t r = 0; r < runs.size(); ++r) {
    const compare::Run& run = runs[r];
    const std::string epochs = EpochCharts(run);
    const std::string ranks = RankCharts(RankOutputs(run));
    html += "<h2>Run " + Escape(labels[r]) + "</h2>\n<p class=\"note\">" + Escape(run.source) +
            "</p>\n" + IncompleteNote(run, labels[r]);
    if (!epochs.empty() || !ranks.empty())
      html += "<div class=\"charts\">" + epochs + ranks + "</div>\n";
    html += "<h3>I/O</h3>\n" + IoCharts(LoadIoData(storage::PosixEnv(), run));
    const std::string requests = RequestTable(run.summary);
    if (!requests.empty()) html += "<h3>Object storage requests</h3>\n" + requests;
  }
  html += PageEnd();
  return html;
}

}  // namespace dlbench::report
