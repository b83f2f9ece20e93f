// aggregate.json of `dlbench run --repeat N`: the median and spread over the runs of every number
// their summary.json files have in common.
#pragma once

#include <string>

#include "compare/run_set.h"
#include "metrics/json_fields.h"

namespace dlbench::compare {

// {"runs": [summary paths relative to `folder`], "count": N, "metrics": {PATH: {"median", "min",
// "max", "mean", "stdev", "relative_spread", "values"}}} where PATH is every dotted path holding a
// number (or a list of numbers, taken as its mean, as `compare` reads it) in every run. Medians are
// numpy's (the mean of the two middle values for an even count); stdev is the population one;
// relative_spread = (max - min) / |median| (omitted when the median is 0), "unmeasured": {PATH:
// {"reason", "run"}}} for every headline metric that a run holds without having measured it
// (unmeasured.h; "run": the first such run): its entry under "metrics" averages a 0 that is no
// number, kept as summary.json keeps it.
// LoadRunSet(folder) reads the runs back from the "runs" list. run_status is not aggregated; an
// incomplete run is a usage error (run_set.h CheckComplete).
metrics::Json AggregateRuns(const RunSet& runs, const std::string& folder);

// The headline metrics of an aggregate as a small table: median, min .. max, relative spread; an
// unmeasured one as "n/a" with its reason, followed by its fallback (MetricSpec::fallback_path),
// labelled "<label> exact", as `dlbench compare` does.
std::string AggregateTable(const metrics::Json& aggregate);

}  // namespace dlbench::compare
