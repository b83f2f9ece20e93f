// The trace summary for people (tables, sparklines of bandwidth per second) and for machines
// (`--json`). Pure: strings from a TraceSummary.
#pragma once

#include <string>

#include "trace_summary/trace_summary.h"

namespace dlbench::trace_summary {

std::string FormatText(const TraceSummary& summary);
std::string FormatJson(const TraceSummary& summary);

// One character per value, ▁ (lowest) to █ (the maximum); a space for 0. At most `width`
// characters: longer series are averaged over equal groups of consecutive values.
std::string Sparkline(const std::vector<double>& values, std::size_t width = 80);

}  // namespace dlbench::trace_summary
