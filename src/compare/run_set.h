// One side of a comparison: the summary.json files of one or more runs, read from what the user
// named — a run folder, a summary.json, a folder of run folders (`dlbench run --repeat`), or a
// glob of any of these.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "metrics/json_fields.h"

namespace dlbench::compare {

struct Run {
  std::string source;  // path of its summary.json
  metrics::Json summary;
};

struct RunSet {
  std::string argument;   // as the user wrote it
  std::vector<Run> runs;  // sorted by source path
};

// Throws a usage error (exit 2) naming the path when nothing matches, a folder holds no
// summary.json at any depth, or a file is not a JSON object.
RunSet LoadRunSet(const std::string& argument);

// A JSON object read from `file`; a usage error (exit 2) naming it when it cannot be read, is not
// JSON or is not an object.
metrics::Json ReadJsonObject(const std::string& file);

// What summary.json's run_status (written by workflow/run_results.h) says of an incomplete run:
// "stopped in phase train: <error> (exit 3)", or "stopped in phase train (killed, or still
// running)" when no failure was recorded. Empty for a complete run, and for a summary without
// run_status (written by a dlbench older than it, taken as complete).
std::string IncompleteRunNote(const metrics::Json& summary);

// A usage error (exit 2) naming the run's file and phase when IncompleteRunNote is not empty:
// an incomplete run's numbers describe part of a run, so nothing compares them, not even --force.
void CheckComplete(const Run& run);

// The node at a dotted path (`metric.train_au_mean_percentage`), or nullptr.
const metrics::Json* FindPath(const metrics::Json& json, const std::string& path);

// The number at a dotted path (`metric.train_au_mean_percentage`); a list of numbers (one per
// epoch or per checkpoint) gives its mean. nullopt when the path is absent; a usage error (exit 2)
// naming `source` when the value there is not a number or a non-empty list of numbers.
std::optional<double> MetricValue(const metrics::Json& summary, const std::string& path,
                                  const std::string& source);

}  // namespace dlbench::compare
