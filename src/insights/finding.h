// A finding of the run's insights (docs/insights.md): what limited the run, the numbers that say
// so and what to try. Plain values; the rules (rules.h) make them, insights.h turns them into
// summary.json's `insights` and the lines the terminal, `dlbench compare` and `trace summary` show.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "metrics/json_fields.h"

namespace dlbench::insights {

enum class Severity { kInfo, kWarning, kHigh };

// "info", "warning", "high".
const char* SeverityName(Severity severity);
// The inverse; nullopt for any other text.
std::optional<Severity> ParseSeverity(const std::string& text);

// One number behind a finding: the metric (its summary.json path, or what it is computed from),
// its value and unit and, when the rule compares it, the threshold it was held against.
struct Evidence {
  std::string metric;
  double value = 0;
  std::string unit;
  std::optional<double> threshold;
  std::string comparison;  // ">=", "<", ... when there is a threshold
};

struct Finding {
  std::string id;  // stable: storage_bound, small_reads, ... (docs/insights.md)
  Severity severity = Severity::kInfo;
  std::string message;  // one sentence
  std::vector<Evidence> evidence;
  std::string suggestion;  // what to try
};

// "<metric> = <value> <unit> (threshold <comparison> <threshold>)", the value with up to 4
// significant digits; the parenthesis only when there is a threshold.
std::string EvidenceText(const Evidence& evidence);

// {"id", "severity", "message", "evidence": [{"metric", "value", "unit", "threshold",
// "comparison"}], "suggestion"}; a value that is not finite is left out, as everywhere in
// summary.json.
metrics::Json FindingJson(const Finding& finding);
// The inverse, for summary.json files read back (compare, report, trace summary). nullopt for a
// node that is not a finding (no string id, an unknown severity).
std::optional<Finding> FindingFromJson(const metrics::Json& json);

}  // namespace dlbench::insights
