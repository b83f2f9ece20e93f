#include "compare/comparison_format.h"

#include <algorithm>
#include <cstdio>

#include "metrics/json_fields.h"
#include "util/count_text.h"

namespace dlbench::compare {
namespace {

// `value` through a printf `format` that prints that one number (a few characters).
std::string Printed(const char* format, double value) {
  char text[32];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

std::string Number(double value) { return Printed("%.6g", value); }

std::string Change(const MetricRow& row) {
  if (!row.ratio) return row.current_median == row.baseline_median ? "0%" : "n/a";
  return Printed("%+.1f%%", (*row.ratio - 1) * 100);
}

std::string PValue(const MetricRow& row) {
  return row.u_test ? Printed("%.3g", row.u_test->p_value) : "-";
}

std::string Percent(double fraction) { return Printed("%g%%", fraction * 100); }

std::string HowDecided(const MetricRow& row, double alpha) {
  switch (row.method) {
    case Method::kRankTest:
      return "U test p<" + Number(alpha) + " and tolerance " + Percent(row.tolerance);
    case Method::kToleranceOneRun:
      return "tolerance " + Percent(row.tolerance) + " and no overlap (1 run on a side)";
    case Method::kToleranceFewRuns:
      return "tolerance " + Percent(row.tolerance) + " and no overlap (too few runs for p<" +
             Number(alpha) + ")";
  }
  return "";
}

std::vector<std::vector<std::string>> Cells(const Comparison& comparison) {
  std::vector<std::vector<std::string>> cells;
  cells.push_back(
      {"metric", "better", "baseline", "current", "change", "p-value", "verdict", "decided by"});
  for (const MetricRow& row : comparison.rows) {
    cells.push_back({row.spec.label, DirectionName(row.spec.direction), Number(row.baseline_median),
                     Number(row.current_median), Change(row), PValue(row), VerdictName(row.verdict),
                     HowDecided(row, comparison.alpha)});
  }
  return cells;
}

std::string Outcome(const Comparison& comparison) {
  std::size_t regressions = 0;
  for (const MetricRow& row : comparison.rows) {
    if (row.verdict == Verdict::kRegression) ++regressions;
  }
  std::string text = regressions > 0
                         ? "Result: REGRESSION in " + std::to_string(regressions) + " of " +
                               CountOf(comparison.rows.size(), "metric")
                         : "Result: no regression in " + CountOf(comparison.rows.size(), "metric");
  if (!comparison.skipped.empty()) {
    text += " (not measured on either side:";
    for (const std::string& label : comparison.skipped) text += " " + label + ";";
    text.back() = ')';
  }
  if (!comparison.one_sided.empty()) {
    std::string one_side, unmeasured;
    for (const OneSidedMetric& metric : comparison.one_sided) {
      if (!metric.reason.empty()) {
        unmeasured += " " + metric.spec.label + ";";
        continue;
      }
      one_side += " " + metric.spec.label + " in the " +
                  (metric.in_baseline ? "baseline" : "current") + " runs;";
    }
    if (!one_side.empty()) {
      one_side.back() = ')';
      text += " (measured on one side only, not compared:" + one_side;
    }
    if (!unmeasured.empty()) {
      unmeasured.back() = ')';
      text += " (not measured by the runs, not compared:" + unmeasured;
    }
  }
  return text + "\n";
}

std::string Header(const Comparison& comparison, const RunSet& baseline, const RunSet& current) {
  return "Baseline: " + std::to_string(comparison.baseline_runs) + " run(s) from " +
         baseline.argument + "\nCurrent:  " + std::to_string(comparison.current_runs) +
         " run(s) from " + current.argument + "\nValues are medians over the runs.\n";
}

std::string Terminal(const Comparison& comparison, const RunSet& baseline, const RunSet& current) {
  const auto cells = Cells(comparison);
  std::vector<std::size_t> width(cells.front().size(), 0);
  for (const auto& line : cells) {
    for (std::size_t c = 0; c < line.size(); ++c) width[c] = std::max(width[c], line[c].size());
  }
  std::string text = Header(comparison, baseline, current) + "\n";
  for (const auto& line : cells) {
    std::string out;
    for (std::size_t c = 0; c < line.size(); ++c) {
      const bool last = c + 1 == line.size();
      const bool left = c < 2 || c >= 6;  // names left-aligned, numbers right-aligned
      std::string cell = line[c];
      const std::string pad(width[c] - cell.size(), ' ');
      out += left ? cell + (last ? "" : pad) : pad + cell;
      if (!last) out += "  ";
    }
    text += out + "\n";
  }
  text += "\n";
  for (const std::string& warning : SpreadWarnings(comparison))
    text += "WARNING: " + warning + "\n";
  return text + Outcome(comparison);
}

std::string Markdown(const Comparison& comparison, const RunSet& baseline, const RunSet& current) {
  const auto cells = Cells(comparison);
  // Markdown joins consecutive lines into one paragraph: the sides are list items.
  std::string text = "- Baseline: " + std::to_string(comparison.baseline_runs) + " run(s) from " +
                     baseline.argument + "\n- Current: " + std::to_string(comparison.current_runs) +
                     " run(s) from " + current.argument +
                     "\n\nValues are medians over the runs.\n\n";
  for (std::size_t i = 0; i < cells.size(); ++i) {
    text += "|";
    for (const std::string& cell : cells[i]) text += " " + cell + " |";
    text += "\n";
    if (i == 0) {
      text += "|";
      for (std::size_t c = 0; c < cells[i].size(); ++c)
        text += (c >= 2 && c < 6) ? "---:|" : "---|";
      text += "\n";
    }
  }
  text += "\n";
  for (const std::string& warning : SpreadWarnings(comparison))
    text += "> **Warning:** " + warning + "\n\n";
  std::string outcome = Outcome(comparison);
  outcome.pop_back();  // the newline goes after the bold markers
  return text + "**" + outcome + "**\n";
}

metrics::Json Side(const MetricRow& row, bool baseline) {
  metrics::Json side;
  side["values"] = baseline ? row.baseline : row.current;
  side["median"] = baseline ? row.baseline_median : row.current_median;
  metrics::SetNumber(side, "relative_spread", baseline ? row.baseline_spread : row.current_spread);
  side["noisy"] = row.noisy(baseline);
  return side;
}

std::string JsonText(const Comparison& comparison, const RunSet& baseline, const RunSet& current) {
  metrics::Json json;
  for (const auto& [key, set] :
       {std::pair{"baseline", &baseline}, std::pair{"current", &current}}) {
    metrics::Json runs = metrics::Json::array();
    for (const Run& run : set->runs) runs.push_back(run.source);
    json[key] = {{"argument", set->argument}, {"runs", runs}};
  }
  json["alpha"] = comparison.alpha;
  json["metrics"] = metrics::Json::array();
  for (const MetricRow& row : comparison.rows) {
    metrics::Json entry;
    entry["path"] = row.spec.path;
    entry["label"] = row.spec.label;
    entry["better"] = DirectionName(row.spec.direction);
    entry["tolerance"] = row.tolerance;
    entry["baseline"] = Side(row, true);
    entry["current"] = Side(row, false);
    metrics::SetNumber(entry, "ratio_of_medians", row.ratio);
    if (row.u_test) {
      entry["u_statistic"] = row.u_test->u;
      entry["p_value"] = row.u_test->p_value;
      entry["p_value_exact"] = row.u_test->exact;
    }
    entry["method"] = row.method == Method::kRankTest          ? "rank_test"
                      : row.method == Method::kToleranceOneRun ? "tolerance_one_run"
                                                               : "tolerance_few_runs";
    entry["verdict"] = VerdictName(row.verdict);
    json["metrics"].push_back(std::move(entry));
  }
  json["skipped"] = comparison.skipped;
  json["one_sided"] = metrics::Json::array();
  for (const OneSidedMetric& metric : comparison.one_sided) {
    json["one_sided"].push_back({{"path", metric.spec.path},
                                 {"label", metric.spec.label},
                                 {"phase", metric.spec.phase},
                                 {"side", metric.in_baseline ? "baseline" : "current"},
                                 {"example", metric.example},
                                 {"reason", metric.reason}});
  }
  json["warnings"] = SpreadWarnings(comparison);
  json["regression"] = comparison.regression();
  return json.dump(2) + "\n";
}

}  // namespace

std::vector<std::string> SpreadWarnings(const Comparison& comparison) {
  std::vector<std::string> warnings;
  for (const MetricRow& row : comparison.rows) {
    for (const bool baseline : {true, false}) {
      if (!row.noisy(baseline)) continue;
      const std::optional<double>& spread = baseline ? row.baseline_spread : row.current_spread;
      warnings.push_back(row.spec.label + ": the " + (baseline ? "baseline" : "current") +
                         " runs spread " + Printed("%.0f%%", *spread * 100) +
                         " (max - min over the median), more than the tolerance " +
                         Percent(row.tolerance) +
                         ": a change of the tolerance cannot be told from their noise (quieter "
                         "or more runs)");
    }
  }
  return warnings;
}

std::vector<std::string> OneSidedNotes(const Comparison& comparison) {
  // Grouped by (side, phase), in the order the metrics come.
  std::vector<std::pair<const OneSidedMetric*, std::string>> groups;
  std::vector<std::string> notes;
  for (const OneSidedMetric& metric : comparison.one_sided) {
    if (metric.reason.empty()) continue;
    notes.push_back(metric.spec.label + " not compared: " + metric.reason + " (e.g. " +
                    metric.example + ")" +
                    (metric.spec.fallback_path.empty()
                         ? std::string()
                         : "; " + metric.spec.fallback_path + " is compared instead when present"));
  }
  for (const OneSidedMetric& metric : comparison.one_sided) {
    if (!metric.reason.empty()) continue;
    const auto same = std::find_if(groups.begin(), groups.end(), [&](const auto& group) {
      return group.first->in_baseline == metric.in_baseline &&
             group.first->spec.phase == metric.spec.phase;
    });
    if (same == groups.end()) {
      groups.emplace_back(&metric, metric.spec.label);
    } else {
      same->second += ", " + metric.spec.label;
    }
  }
  for (const auto& [first, labels] : groups) {
    const std::string what =
        first->spec.phase.empty() ? "metric " + labels : "phase " + first->spec.phase;
    notes.push_back(what + " ran only in the " + (first->in_baseline ? "baseline" : "current") +
                    " run(s) (e.g. " + first->example + "): " + labels + " not compared");
  }
  return notes;
}

std::string FormatComparison(const Comparison& comparison, const RunSet& baseline,
                             const RunSet& current, Format format) {
  switch (format) {
    case Format::kTerminal:
      return Terminal(comparison, baseline, current);
    case Format::kMarkdown:
      return Markdown(comparison, baseline, current);
    case Format::kJson:
      return JsonText(comparison, baseline, current);
  }
  return "";
}

}  // namespace dlbench::compare
