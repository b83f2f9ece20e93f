// `dlbench report`: one self-contained HTML file (inline SVG and CSS, one small inline script,
// no network at view time) showing what runs did — per-epoch AU and throughput, the per-rank
// step timeline and spread, checkpoint stall against drain and time to durable, and, for
// several runs, their headline metrics side by side with the change against the first; per run,
// its access-size histograms and bandwidth over time (report/io_charts.h).
#pragma once

#include <string>
#include <vector>

#include "compare/run_set.h"

namespace dlbench::report {

// Builds the page from runs loaded by compare::LoadRunSet (each run's folder is the folder of
// its summary.json, where <rank>_output.json files are looked for). Usage error (exit 2) for a
// <rank>_output.json that is not JSON or a summary.json whose posix_counters are not counters;
// trace_summary's Error(kIo) (exit 3) for a trace in a run folder that is not a DFTracer trace.
// `comparison`, when not empty, is `dlbench compare`'s table of the first two arguments, shown
// as is.
std::string BuildHtmlReport(const std::vector<compare::Run>& runs,
                            const std::string& comparison = "");

}  // namespace dlbench::report
