// Fuzz target: the trace reader of `dlbench trace summary` (src/trace_summary/). The input's
// parts (fuzz_target.h's SplitInput) are a run folder's files: rank 0's trace (gzip members when
// it starts with gzip's magic), rank 0's counters file (0_posix_counters.json.gz when it starts
// with gzip's magic, else the plain 0_posix_counters.json of earlier versions) and rank 1's trace
// (an empty part: no such file); a fourth part, if any, is the name of rank 0's trace (whose rank
// comes from its name). The summary is then printed as text and JSON.
#include <string>
#include <vector>

#include "fuzz/fuzz_target.h"
#include "fuzz/memory_env.h"
#include "trace_summary/summary_format.h"
#include "trace_summary/trace_summary.h"

namespace {

bool IsGzip(std::string_view bytes) {
  return bytes.size() >= 2 && bytes[0] == '\x1f' && bytes[1] == '\x8b';
}

std::string TraceName(int rank, std::string_view bytes) {
  return "/run/trace-" + std::to_string(rank) + "-of-2.pfw" + (IsGzip(bytes) ? ".gz" : "");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace fuzz = dlbench::fuzz;
  namespace trace_summary = dlbench::trace_summary;
  const std::vector<std::string_view> parts = fuzz::SplitInput(fuzz::AsText(data, size));
  fuzz::MemoryEnv env;
  const bool named = parts.size() > 3 && !parts[3].empty() && parts[3].find('/') == parts[3].npos;
  env.add(named ? "/run/" + std::string(parts[3]) : TraceName(0, parts[0]), parts[0]);
  if (parts.size() > 1 && !parts[1].empty()) {
    env.add(std::string("/run/0_posix_counters.json") + (IsGzip(parts[1]) ? ".gz" : ""), parts[1]);
  }
  if (parts.size() > 2 && !parts[2].empty()) env.add(TraceName(1, parts[2]), parts[2]);
  fuzz::ExpectOnlyInputErrors([&] {
    const trace_summary::TraceSummary summary = trace_summary::SummarizeRun(env, "/run");
    trace_summary::FormatText(summary);
    trace_summary::FormatJson(summary);
  });
  return 0;
}
