// Whether a run holds a headline metric without having measured it (MetricSpec
// unmeasured_when_zero): DLIO's throughput of blocks of at most 2 steps, the AU of an epoch whose
// steps the exclusions all cover, the generation rate of a run that kept its dataset. Their 0 is
// no measurement: `dlbench compare` leaves such a metric out with the spec's reason, the
// `--repeat` aggregate and the HTML report show "n/a" with it — as the terminal table of a single
// run does (metrics/terminal_table.cpp).
#pragma once

#include <string>
#include <vector>

#include "compare/metric_spec.h"
#include "metrics/json_fields.h"

namespace dlbench::compare {

// Why `summary` holds the metric without a measurement of the storage: spec.unmeasured_reason when
// it holds the number at spec.unmeasured_when_zero and it is 0 (a list: any of its entries),
// spec.meaningless_reason when the number at spec.meaningless_when_zero is 0; empty otherwise.
std::string UnmeasuredReason(const MetricSpec& spec, const metrics::Json& summary);

// !UnmeasuredReason(spec, summary).empty(). False for a spec without those rules.
bool IsUnmeasured(const MetricSpec& spec, const metrics::Json& summary);

// Per entry of the list at spec.unmeasured_when_zero (one per epoch): whether that entry is 0, so
// the epoch's value of the metric is no measurement. Empty when the path holds no list.
std::vector<bool> UnmeasuredEntries(const MetricSpec& spec, const metrics::Json& summary);

// The headline metric at `path` (HeadlineMetrics()); InternalError when there is none.
MetricSpec HeadlineMetric(const std::string& path);

}  // namespace dlbench::compare
