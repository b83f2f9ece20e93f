#include "report/html_report.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <string_view>
#include <system_error>

#include "compare/metric_spec.h"
#include "metrics/json_fields.h"
#include "report/io_charts.h"
#include "report/svg_charts.h"

namespace dlbench::report {
namespace fs = std::filesystem;
namespace {

using Json = metrics::Json;

constexpr std::size_t kMaxTimelineSteps = 400;  // per rank, so the SVG stays small

constexpr const char* kStyle =
    R"(body{font-family:system-ui,sans-serif;margin:24px;color:#222;max-width:1400px}
h1{font-size:22px}h2{font-size:18px;margin-top:28px;border-bottom:1px solid #ddd}h3{font-size:15px}
.charts{display:flex;flex-wrap:wrap;gap:12px}figure.chart{margin:0;border:1px solid #eee}
svg text{font-size:11px;fill:#333}svg .title{font-size:13px;font-weight:600}
svg .grid{stroke:#e5e5e5}table{border-collapse:collapse;font-size:13px}
td,th{border:1px solid #ddd;padding:3px 8px;text-align:right}td:first-child,th:first-child{text-align:left}
.note{color:#666;font-size:13px}.bad{color:#b00}.good{color:#070})";

// Marks every chart drawn (it has marks and a non-empty box once laid out) for the Chromium test.
constexpr const char* kScript = R"(document.querySelectorAll('figure.chart').forEach(function(f){
var s=f.querySelector('svg');var b=s.getBBox();
f.setAttribute('data-drawn',(s.querySelectorAll('.mark').length>0&&b.width>0&&b.height>0)?'yes':'no');});
document.body.setAttribute('data-charts',String(document.querySelectorAll('figure.chart').length));)";

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

std::string RunName(const compare::Run& run) {
  return fs::path(run.source).parent_path().filename().string();
}

// A run whose summary.json says it did not complete (compare/run_set.h IncompleteRunNote): its
// numbers are those of the phases that ended before it stopped.
std::string IncompleteNote(const compare::Run& run) {
  const std::string note = compare::IncompleteRunNote(run.summary);
  if (note.empty()) return "";
  return "<p class=\"bad\"><strong>Incomplete run</strong> " + Escape(RunName(run)) + ": " +
         Escape(note) + ". Its numbers cover only the phases that ended before.</p>\n";
}

// <rank>_output.json files of the run's folder, by rank.
std::vector<std::pair<int, Json>> RankOutputs(const compare::Run& run) {
  std::vector<std::pair<int, Json>> outputs;
  const fs::path folder = fs::path(run.source).parent_path();
  std::error_code error;
  for (fs::directory_iterator it(folder, error), end; !error && it != end; it.increment(error)) {
    const std::string name = it->path().filename().string();
    const std::string suffix = "_output.json";
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

std::string EpochCharts(const compare::Run& run) {
  const std::vector<double> au = List(run.summary, "metric.train_au_percentage");
  if (au.empty()) return "";
  std::vector<double> epochs;
  for (std::size_t e = 1; e <= au.size(); ++e) epochs.push_back(static_cast<double>(e));
  std::vector<Series> au_series = {{"mean over ranks", epochs, au}};
  const auto au_min = List(run.summary, "metric.train_au_min_percentage");
  const auto au_max = List(run.summary, "metric.train_au_max_percentage");
  if (au_min.size() == au.size()) au_series.push_back({"min rank", epochs, au_min});
  if (au_max.size() == au.size()) au_series.push_back({"max rank", epochs, au_max});
  std::vector<Series> rate;
  for (const auto& [name, path] :
       {std::pair{"DLIO", "metric.train_throughput_samples_per_second"},
        std::pair{"measured steps", "metric.train_throughput_samples_per_second_exact"}}) {
    const auto values = List(run.summary, path);
    if (values.size() == epochs.size()) rate.push_back({name, epochs, values});
  }
  std::string charts = LineChart("AU per epoch", "epoch", "AU %", au_series);
  if (!rate.empty())
    charts += LineChart("Training throughput per epoch", "epoch", "samples/s", rate);
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

std::string CheckpointChart(const std::vector<compare::Run>& runs) {
  std::vector<std::string> names;
  Series stall{"stall (mean)", {}, {}}, drain{"drain (mean)", {}, {}},
      durable{"durable (mean)", {}, {}};
  for (const compare::Run& run : runs) {
    const auto s = List(run.summary, "metric.checkpoint_stall_mean_seconds");
    if (s.empty()) continue;
    names.push_back(RunName(run));
    stall.y.push_back(s[0]);
    const auto drained = List(run.summary, "metric.checkpoint_drained_bytes");
    const auto rate = List(run.summary, "metric.checkpoint_drain_GiB_per_second");
    const auto saves = List(run.summary, "metric.save_checkpoint_duration_max_seconds");
    drain.y.push_back(drained.empty() || rate.empty() || rate[0] <= 0 || saves.empty()
                          ? 0.0
                          : drained[0] / (rate[0] * 1073741824.0) /
                                static_cast<double>(saves.size()));
    const auto d = List(run.summary, "metric.checkpoint_time_to_durable_mean_seconds");
    durable.y.push_back(d.empty() ? 0.0 : d[0]);
  }
  if (names.empty()) return "";
  return BarChart("Checkpoint: stall, drain and time to durable", "seconds", names,
                  {stall, drain, durable});
}

std::string MetricsTable(const std::vector<compare::Run>& runs) {
  std::string html = "<table><tr><th>metric</th><th>better</th>";
  for (const compare::Run& run : runs) html += "<th>" + Escape(RunName(run)) + "</th>";
  html += "</tr>";
  for (const compare::MetricSpec& spec : compare::HeadlineMetrics()) {
    std::string row = "<tr><td>" + Escape(spec.label) + "</td><td>" +
                      compare::DirectionName(spec.direction) + "</td>";
    std::optional<double> first;
    bool any = false;
    for (std::size_t i = 0; i < runs.size(); ++i) {
      const auto value = compare::MetricValue(runs[i].summary, spec.path, runs[i].source);
      if (!value) {
        row += "<td>-</td>";
        continue;
      }
      any = true;
      std::string cell = Num(*value);
      if (i == 0) first = value;
      if (i > 0 && first && *first != 0) {
        const double change = *value / *first - 1;
        const bool worse =
            spec.direction == compare::Direction::kHigherIsBetter ? change < 0 : change > 0;
        char text[32];
        std::snprintf(text, sizeof text, " (%+.1f%%)", change * 100);
        cell +=
            std::string(" <span class=\"") + (worse ? "bad" : "good") + "\">" + text + "</span>";
      }
      row += "<td>" + cell + "</td>";
    }
    if (any) html += row + "</tr>";
  }
  return html + "</table>\n";
}

}  // namespace

std::string BuildHtmlReport(const std::vector<compare::Run>& runs, const std::string& comparison) {
  std::string html =
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>dlbench "
      "report</title><style>";
  html += kStyle;
  html += "</style></head><body>\n<h1>dlbench report</h1>\n";
  html += "<h2>Headline metrics</h2>\n";
  if (runs.size() > 1) {
    html +=
        "<p class=\"note\">Changes are against the first run. For a statistical verdict over "
        "sets of repeated runs use <code>dlbench compare</code>.</p>\n";
  }
  for (const compare::Run& run : runs) html += IncompleteNote(run);
  html += MetricsTable(runs);
  if (!comparison.empty()) {
    html += "<h2>dlbench compare</h2>\n<pre>" + Escape(comparison) + "</pre>\n";
  }
  const std::string checkpoint = CheckpointChart(runs);
  if (!checkpoint.empty())
    html += "<h2>Checkpoints</h2>\n<div class=\"charts\">" + checkpoint + "</div>\n";
  for (const compare::Run& run : runs) {
    const std::string epochs = EpochCharts(run);
    const std::string ranks = RankCharts(RankOutputs(run));
    html += "<h2>Run " + Escape(RunName(run)) + "</h2>\n<p class=\"note\">" + Escape(run.source) +
            "</p>\n" + IncompleteNote(run);
    if (!epochs.empty() || !ranks.empty())
      html += "<div class=\"charts\">" + epochs + ranks + "</div>\n";
    html += "<h3>I/O</h3>\n" + IoCharts(LoadIoData(storage::PosixEnv(), run));
  }
  html += std::string("<script>") + kScript + "</script>\n</body></html>\n";
  return html;
}

}  // namespace dlbench::report
