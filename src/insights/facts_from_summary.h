// The run's facts (run_facts.h) read from its summary.json: the reduced results, the reduced
// POSIX counters and the staging and checkpoint fields. Rank 0 calls it on the summary it holds
// at the end of a run; `dlbench compare`, `report` and `trace summary` on a summary.json read
// back (one written before the insights existed gets its findings this way). Never throws: a
// field that is absent or not of its type leaves its fact unmeasured.
#pragma once

#include "insights/run_facts.h"
#include "metrics/json_fields.h"

namespace dlbench::insights {

RunFacts FactsFromSummary(const metrics::Json& summary);

}  // namespace dlbench::insights
