// The comparison of two sets of runs, metric by metric. A metric regresses when its median moved
// in the bad direction by more than its tolerance AND, when both sides have enough runs for the
// rank test to reach `alpha`, the Mann–Whitney U test finds the difference significant. With
// fewer runs the two sides' ranges must not overlap: every current run worse than every baseline
// run (what p < 0.05 requires with 4 runs a side, the fewest that can reach it), else the verdict
// is "inconclusive" — never stricter than with runs enough for the rank test.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "compare/mann_whitney.h"
#include "compare/metric_spec.h"
#include "compare/run_set.h"

namespace dlbench::compare {

enum class Verdict {
  kSame,          // within the tolerance
  kNoise,         // beyond the tolerance but not significant in the rank test
  kInconclusive,  // beyond the tolerance, too few runs for the rank test, and the ranges overlap
  kImproved,      // better by more than the tolerance (and significant when tested)
  kRegression,    // worse by more than the tolerance (and significant when tested)
};

// "same", "noise", "inconclusive", "improved", "REGRESSION"
const char* VerdictName(Verdict verdict);

enum class Method {
  kRankTest,  // U test and tolerance
  // Tolerance and ranges that do not overlap (Comparison's header), because:
  kToleranceOneRun,   // a side has a single run
  kToleranceFewRuns,  // too few runs for the U test to reach alpha (2 / C(n1 + n2, n1) >= alpha)
};

struct MetricRow {
  MetricSpec spec;
  double tolerance = 0;
  std::vector<double> baseline;  // one value per run
  std::vector<double> current;
  double baseline_median = 0;
  double current_median = 0;
  // current_median / baseline_median (the effect size); nullopt when the baseline median is 0.
  std::optional<double> ratio;
  // (max - min) / |median| of each side; nullopt when the median is 0. A side whose spread
  // exceeds the tolerance cannot resolve a change of the tolerance (noisy()).
  std::optional<double> baseline_spread;
  std::optional<double> current_spread;
  Method method = Method::kToleranceOneRun;
  std::optional<UTest> u_test;  // computed whenever both sides have two runs or more
  Verdict verdict = Verdict::kSame;

  bool noisy(bool baseline_side) const {
    const std::optional<double>& spread = baseline_side ? baseline_spread : current_spread;
    return spread && *spread > tolerance;
  }
};

// A headline metric left out of the decision, with a note. Without a reason: every run of one
// side measured it and no run of the other, so that phase ran on one side only (a single run that
// also generated its dataset, against a `--repeat` set whose runs did not). With a reason (the
// spec's unmeasured_reason): a run holds it without having measured it (MetricSpec
// unmeasured_when_zero), so its 0 is no number to compare.
struct OneSidedMetric {
  MetricSpec spec;
  bool in_baseline = false;  // which side has it (with a reason: the side of `example`)
  std::string example;       // a run that has it, or with a reason one that did not measure it
  std::string reason;        // empty: measured on one side only
};

struct Comparison {
  std::vector<MetricRow> rows;
  std::vector<std::string> skipped;  // headline metrics neither side measured
  std::vector<OneSidedMetric> one_sided;
  double alpha = 0.05;
  std::size_t baseline_runs = 0;
  std::size_t current_runs = 0;

  bool regression() const;
};

// Throws a usage error (exit 2) naming the file when a run is incomplete (CheckComplete, even
// with settings.force), when a metric is in some runs of a side and not in others, when a metric
// asked by name is not in every run, when the two sides ran different workloads (unless
// settings.force), and when no metric is in both (nothing left to decide on: a CI job must not
// pass on an empty table).
Comparison Compare(const RunSet& baseline, const RunSet& current, const CompareSettings& settings);

// The run's identity as summary.json records it (workload name, dataset shape, ranks, epochs):
// a usage error (exit 2) listing the differing fields when `a` and `b` differ.
void CheckSameWorkload(const Run& a, const Run& b);

}  // namespace dlbench::compare
