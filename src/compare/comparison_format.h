// A comparison as the user reads it: a terminal table, a markdown table (for a CI job's summary or
// a merge-request comment) or JSON (for tools).
#pragma once

#include <string>
#include <vector>

#include "compare/comparison.h"
#include "compare/run_set.h"

namespace dlbench::compare {

enum class Format { kTerminal, kMarkdown, kJson };

// Each ends with a newline. The tables close with a line saying the outcome and how each metric
// was decided (rank test, or tolerance and ranges that do not overlap, and why).
std::string FormatComparison(const Comparison& comparison, const RunSet& baseline,
                             const RunSet& current, Format format);

// One line per side of a metric whose runs spread more than its tolerance (MetricRow::noisy):
// "train samples/s: the baseline runs spread 83% (max - min over the median), more than the
// tolerance 10%: ...". Every format prints them ("WARNING:" on the terminal, a quote in markdown,
// "warnings" in JSON).
std::vector<std::string> SpreadWarnings(const Comparison& comparison);

// One line per phase that only one side ran (Comparison::one_sided), for `dlbench: note:`:
// "phase generation ran only in the current run(s) (e.g. cur/summary.json): generation MiB/s
// not compared". Before them, one line per headline metric a run did not measure (its reason):
// "train AU % not compared: no step was measured ... (e.g. base/summary.json)". Empty when both
// sides ran the same phases and measured every metric they hold.
std::vector<std::string> OneSidedNotes(const Comparison& comparison);

}  // namespace dlbench::compare
