// The report's opening section: each run's insights (docs/insights.md) — severity, id, message,
// evidence and suggestion — and, for several runs, what changed against the first.
#pragma once

#include <string>
#include <vector>

#include "compare/run_set.h"

namespace dlbench::report {

// `names[i]` is the name the report gives runs[i]. Says so when no run has a finding.
std::string InsightsSection(const std::vector<compare::Run>& runs,
                            const std::vector<std::string>& names);

}  // namespace dlbench::report
