// `dlbench report`: one self-contained HTML file (inline SVG and CSS, one small inline script,
// no network at view time) showing what runs did — per-epoch AU and throughput, the per-rank
// step timeline and spread, checkpoint stall against drain and time to durable, and, for
// several runs, their headline metrics side by side with the change against the first.
//
// Read-size histograms and bandwidth over time need the tracer's counters (not built yet); the
// report says so instead of drawing them.
#pragma once

#include <string>
#include <vector>

#include "compare/run_set.h"

namespace dlbench::report {

// Builds the page from runs loaded by compare::LoadRunSet (each run's folder is the folder of
// its summary.json, where <rank>_output.json files are looked for). Usage error (exit 2) for a
// <rank>_output.json that is not JSON.
// `comparison`, when not empty, is `dlbench compare`'s table of the first two arguments, shown
// as is.
std::string BuildHtmlReport(const std::vector<compare::Run>& runs,
                            const std::string& comparison = "");

}  // namespace dlbench::report
