// A run's insights (docs/insights.md): every rule of rules.h over the run's facts, in summary.json
// as `insights`, a few lines on the terminal, and the changes between two runs' findings for
// `dlbench compare` and `dlbench trace summary`. Pure functions: no I/O.
#pragma once

#include <string>
#include <vector>

#include "insights/finding.h"
#include "insights/run_facts.h"
#include "metrics/json_fields.h"

namespace dlbench::insights {

inline constexpr const char* kInsightsKey = "insights";

// The findings of every rule, in the order of rules.h; empty for a healthy run.
std::vector<Finding> Evaluate(const RunFacts& facts);

// {"insights": [finding, ...]}: the part rank 0 adds to summary.json.
metrics::Json InsightsPart(const std::vector<Finding>& findings);

// The findings a summary.json holds, or, for one written before insights existed (no
// `insights` key), those its fields give (FactsFromSummary, then Evaluate).
std::vector<Finding> FindingsOf(const metrics::Json& summary);

// The findings of a set of runs: each id that any run has, at the highest severity a run gave
// it, in the order of first appearance.
std::vector<Finding> MergedFindings(const std::vector<std::vector<Finding>>& runs);

// The findings only a set of runs of one workload shows, its runs in the order they ran
// (`dlbench run --repeat`): page_cache_served when the later runs read the same bytes faster
// than the first (rules.h PageCacheServedOnRerun). Empty for fewer than 2 runs.
std::vector<Finding> EvaluateSet(const std::vector<RunFacts>& runs);

// The findings of a set from its runs' summary.json files, in the order the runs ran: each run's
// (FindingsOf) and the set's own (EvaluateSet), merged (MergedFindings).
std::vector<Finding> SetFindings(const std::vector<metrics::Json>& summaries);

// "Insights that differ (<after> against <before>): a; b\n", or "" when Differences is empty.
std::string DifferencesLine(const std::vector<Finding>& before, const std::vector<Finding>& after,
                            const std::string& before_name, const std::string& after_name);

// The findings of `minimum` severity and above, one line each ("  [warning] storage_bound: ...")
// followed by the suggestion ("    try: ..."), under a title line; empty when there is none.
std::string TerminalLines(const std::vector<Finding>& findings,
                          Severity minimum = Severity::kWarning);

// What changed from `before` to `after`, one phrase per id: "storage_bound appeared (warning)",
// "small_reads disappeared", "rank_imbalance went from warning to high"; ids in `after`'s order,
// then the disappeared ones in `before`'s.
std::vector<std::string> Differences(const std::vector<Finding>& before,
                                     const std::vector<Finding>& after);

}  // namespace dlbench::insights
