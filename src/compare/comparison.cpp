#include "compare/comparison.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "compare/unmeasured.h"
#include "metrics/percentiles.h"
#include "util/error.h"

namespace dlbench::compare {
namespace {

// summary.json fields that say what ran; a field absent on either side is not compared (older
// summaries have no `workload`).
const std::vector<std::string> kIdentityFields = {
    "workload",       "num_accelerators",     "num_files_train",
    "num_files_eval", "num_samples_per_file", "epochs",
};

const metrics::Json* Find(const metrics::Json& json, const std::string& key) {
  const auto it = json.find(key);
  return it == json.end() ? nullptr : &*it;
}

double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return metrics::SortedQuantile(values, 0.5);
}

std::string Join(const std::vector<std::string>& words) {
  std::string text;
  for (const std::string& word : words) text += (text.empty() ? "" : ", ") + word;
  return text;
}

// Which runs of a side have a metric.
struct Presence {
  std::vector<double> values;
  const Run* with = nullptr;     // the first run that has it
  const Run* without = nullptr;  // the first run that does not
};

Presence PresenceIn(const MetricSpec& spec, const RunSet& side) {
  Presence presence;
  for (const Run& run : side.runs) {
    const std::optional<double> value = MetricValue(run.summary, spec.path, run.source);
    if (!value) {
      presence.without = presence.without ? presence.without : &run;
      continue;
    }
    presence.with = presence.with ? presence.with : &run;
    presence.values.push_back(*value);
  }
  return presence;
}

// The first run of either side that holds `spec` without having measured it (unmeasured.h), or
// nullptr.
const Run* FirstUnmeasured(const MetricSpec& spec, const RunSet& side) {
  for (const Run& run : side.runs) {
    if (IsUnmeasured(spec, run.summary)) return &run;
  }
  return nullptr;
}

// What one metric adds to `comparison`: a row when every run of both sides has it, a skipped
// label when no run has it, a one-sided entry when all the runs of one side have it and none of
// the other's.
void Collect(const MetricSpec& spec, const RunSet& baseline, const RunSet& current,
             const CompareSettings& settings, Comparison& comparison) {
  if (!spec.required) {
    const Run* unmeasured = FirstUnmeasured(spec, baseline);
    const bool in_baseline = unmeasured != nullptr;
    unmeasured = unmeasured ? unmeasured : FirstUnmeasured(spec, current);
    if (unmeasured) {
      comparison.one_sided.push_back(
          {spec, in_baseline, unmeasured->source, UnmeasuredReason(spec, unmeasured->summary)});
      // No fallback when it is asked for by name too: that row is its own.
      const bool asked =
          std::any_of(settings.metrics.begin(), settings.metrics.end(),
                      [&](const MetricSpec& other) { return other.path == spec.fallback_path; });
      if (spec.fallback_path.empty() || asked) return;
      MetricSpec fallback = spec;
      fallback.path = spec.fallback_path;
      fallback.label = spec.label + " exact";
      fallback.unmeasured_when_zero.clear();
      fallback.meaningless_when_zero.clear();
      fallback.fallback_path.clear();
      Collect(fallback, baseline, current, settings, comparison);
      return;
    }
  }
  const Presence in_baseline = PresenceIn(spec, baseline);
  const Presence in_current = PresenceIn(spec, current);
  if (!in_baseline.with && !in_current.with) {
    if (spec.required) {
      throw UsageError("metric " + spec.path + " is in none of the runs compared (first run: " +
                       baseline.runs.front().source + ")");
    }
    comparison.skipped.push_back(spec.label);
    return;
  }
  for (const Presence* side : {&in_baseline, &in_current}) {
    if (side->with && side->without) {
      throw UsageError("metric " + spec.path + " is missing from " + side->without->source +
                       " but present in " + side->with->source +
                       " (runs of one side that ran different phases, or failed part-way)");
    }
  }
  if (!in_baseline.with || !in_current.with) {
    const Presence& with = in_baseline.with ? in_baseline : in_current;
    const Presence& without = in_baseline.with ? in_current : in_baseline;
    if (spec.required) {
      throw UsageError("metric " + spec.path + " is missing from " + without.without->source +
                       " but present in " + with.with->source +
                       " (asked by --metric or a tolerance file, it must be on both sides)");
    }
    comparison.one_sided.push_back({spec, in_baseline.with != nullptr, with.with->source, ""});
    return;
  }
  MetricRow row;
  row.spec = spec;
  row.baseline = in_baseline.values;
  row.current = in_current.values;
  comparison.rows.push_back(std::move(row));
}

// How much worse `current` is than `baseline` in the metric's direction, relative to baseline
// (0.2: 20 % worse; negative: better).
double RelativeWorsening(double baseline, double current, Direction direction) {
  const double worse =
      direction == Direction::kHigherIsBetter ? baseline - current : current - baseline;
  if (baseline != 0) return worse / std::abs(baseline);
  if (worse == 0) return 0;
  return worse > 0 ? std::numeric_limits<double>::infinity()
                   : -std::numeric_limits<double>::infinity();
}

std::optional<double> RelativeSpread(const std::vector<double>& values, double median) {
  if (median == 0) return std::nullopt;
  const auto [min, max] = std::minmax_element(values.begin(), values.end());
  return (*max - *min) / std::abs(median);
}

// Whether every run of `worse` is worse than every run of `better` in the metric's direction:
// the two sides' ranges do not overlap.
bool Separated(const std::vector<double>& better, const std::vector<double>& worse,
               Direction direction) {
  const auto [better_min, better_max] = std::minmax_element(better.begin(), better.end());
  const auto [worse_min, worse_max] = std::minmax_element(worse.begin(), worse.end());
  return direction == Direction::kHigherIsBetter ? *worse_max < *better_min
                                                 : *worse_min > *better_max;
}

void Decide(MetricRow& row, double alpha) {
  row.baseline_median = Median(row.baseline);
  row.current_median = Median(row.current);
  if (row.baseline_median != 0) row.ratio = row.current_median / row.baseline_median;
  row.baseline_spread = RelativeSpread(row.baseline, row.baseline_median);
  row.current_spread = RelativeSpread(row.current, row.current_median);
  const int n1 = static_cast<int>(row.baseline.size());
  const int n2 = static_cast<int>(row.current.size());
  if (n1 >= 2 && n2 >= 2) row.u_test = MannWhitneyU(row.baseline, row.current);
  if (n1 < 2 || n2 < 2) {
    row.method = Method::kToleranceOneRun;
  } else if (SmallestPValue(n1, n2) >= alpha) {
    row.method = Method::kToleranceFewRuns;
  } else {
    row.method = Method::kRankTest;
  }
  const double worsening =
      RelativeWorsening(row.baseline_median, row.current_median, row.spec.direction);
  const bool regressed = worsening > row.tolerance;
  if (!regressed && -worsening <= row.tolerance) {
    row.verdict = Verdict::kSame;
    return;
  }
  // Beyond the tolerance. With runs enough, the rank test decides; with fewer, the ranges must
  // not overlap — what p < alpha requires of 4 runs a side (one run out of order gives p = 0.057),
  // so fewer runs never give a stricter verdict than more.
  bool significant = false;
  if (row.method == Method::kRankTest) {
    significant = row.u_test->p_value < alpha;
  } else {
    significant = regressed ? Separated(row.baseline, row.current, row.spec.direction)
                            : Separated(row.current, row.baseline, row.spec.direction);
  }
  if (!significant) {
    row.verdict = row.method == Method::kRankTest ? Verdict::kNoise : Verdict::kInconclusive;
  } else {
    row.verdict = regressed ? Verdict::kRegression : Verdict::kImproved;
  }
}

}  // namespace

const char* VerdictName(Verdict verdict) {
  switch (verdict) {
    case Verdict::kSame:
      return "same";
    case Verdict::kNoise:
      return "noise";
    case Verdict::kInconclusive:
      return "inconclusive";
    case Verdict::kImproved:
      return "improved";
    case Verdict::kRegression:
      return "REGRESSION";
  }
  return "?";
}

bool Comparison::regression() const {
  return std::any_of(rows.begin(), rows.end(),
                     [](const MetricRow& row) { return row.verdict == Verdict::kRegression; });
}

void CheckSameWorkload(const Run& a, const Run& b) {
  // Each differing key once, in a stable order: the workload block's keys in the baseline's
  // order, then the top-level fields of kIdentityFields not already in it. The summary repeats
  // num_files_train, num_samples_per_file and epochs at the top level for DLIO's readers, so
  // without the check below one difference was listed twice.
  std::string differences;
  std::vector<std::string> listed;
  const auto differ = [&](const std::string& key, const std::string& name, const metrics::Json& x,
                          const metrics::Json& y) {
    if (std::find(listed.begin(), listed.end(), key) != listed.end()) return;
    listed.push_back(key);
    if (x != y) differences += "\n  " + name + ": " + x.dump() + " vs " + y.dump();
  };
  for (const std::string& field : kIdentityFields) {
    const metrics::Json* in_a = Find(a.summary, field);
    const metrics::Json* in_b = Find(b.summary, field);
    if (!in_a || !in_b) continue;
    if (!in_a->is_object() || !in_b->is_object()) {
      differ(field, field, *in_a, *in_b);
      continue;
    }
    for (auto it = in_a->begin(); it != in_a->end(); ++it) {
      if (const metrics::Json* other = Find(*in_b, it.key()))
        differ(it.key(), field + "." + it.key(), it.value(), *other);
    }
  }
  if (!differences.empty()) {
    throw UsageError(
        a.source + " and " + b.source +
        " ran different workloads (use --force to compare them anyway):" + differences);
  }
}

Comparison Compare(const RunSet& baseline, const RunSet& current, const CompareSettings& settings) {
  if (baseline.runs.empty() || current.runs.empty()) {
    throw InternalError("compare: a side without runs");
  }
  for (const RunSet* side : {&baseline, &current}) {
    for (const Run& run : side->runs) CheckComplete(run);  // even with --force
  }
  if (!settings.force) {
    const Run& reference = baseline.runs.front();
    for (const RunSet* side : {&baseline, &current}) {
      for (const Run& run : side->runs) CheckSameWorkload(reference, run);
    }
  }
  Comparison comparison;
  comparison.alpha = settings.alpha;
  comparison.baseline_runs = baseline.runs.size();
  comparison.current_runs = current.runs.size();
  for (const MetricSpec& spec : settings.metrics) {
    Collect(spec, baseline, current, settings, comparison);
  }
  for (MetricRow& row : comparison.rows) {
    row.tolerance = settings.tolerance_of(row.spec);
    Decide(row, settings.alpha);
  }
  if (comparison.rows.empty()) {
    // "train samples/s: DLIO's rate is 0 ... (base/run-1/summary.json)", per metric left out so.
    std::string unmeasured;
    for (const OneSidedMetric& metric : comparison.one_sided) {
      if (metric.reason.empty()) continue;
      unmeasured += std::string(unmeasured.empty() ? "" : "; ") + metric.spec.label + ": " +
                    metric.reason + " (" + metric.example + ")";
    }
    if (!unmeasured.empty()) {
      throw UsageError("no metric to compare: the runs did not measure their headline metrics (" +
                       unmeasured + ")");
    }
    if (comparison.one_sided.empty()) {
      throw UsageError(
          "no metric to compare: no headline metric is in the runs compared (first "
          "run: " +
          baseline.runs.front().source + ")");
    }
    // "baseline ran train, checkpoint (base/run-1/summary.json)", per side that has any.
    std::string ran;
    for (const bool in_baseline : {true, false}) {
      std::vector<std::string> phases;
      const OneSidedMetric* example = nullptr;
      for (const OneSidedMetric& metric : comparison.one_sided) {
        if (metric.in_baseline != in_baseline) continue;
        example = example ? example : &metric;
        const std::string phase = metric.spec.phase.empty() ? metric.spec.label : metric.spec.phase;
        if (std::find(phases.begin(), phases.end(), phase) == phases.end()) phases.push_back(phase);
      }
      if (!example) continue;
      ran += std::string(ran.empty() ? "" : "; ") + (in_baseline ? "baseline" : "current") +
             " ran " + Join(phases) + " (" + example->example + ")";
    }
    throw UsageError("no metric to compare: " + baseline.argument + " and " + current.argument +
                     " ran no phase in common (" + ran + ")");
  }
  return comparison;
}

}  // namespace dlbench::compare
