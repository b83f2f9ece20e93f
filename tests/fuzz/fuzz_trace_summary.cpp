// Fuzz target: the trace reader of `dlbench trace summary` (src/trace_summary/). The input's
// parts (fuzz_target.h's SplitInput) are a run folder's files: rank 0's trace (gzip members when
// it starts with gzip's magic), rank 0's counters file, then rank 1's trace. The summary is then
// printed as text and JSON.
#include <string>
#include <vector>

#include "fuzz/fuzz_target.h"
#include "fuzz/memory_env.h"
#include "trace_summary/summary_format.h"
#include "trace_summary/trace_summary.h"

namespace {

std::string TraceName(int rank, std::string_view bytes) {
  const bool gzip = bytes.size() >= 2 && bytes[0] == '\x1f' && bytes[1] == '\x8b';
  return "/run/trace-" + std::to_string(rank) + "-of-2.pfw" + (gzip ? ".gz" : "");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace fuzz = dlbench::fuzz;
  namespace trace_summary = dlbench::trace_summary;
  const std::vector<std::string_view> parts = fuzz::SplitInput(fuzz::AsText(data, size));
  fuzz::MemoryEnv env;
  env.add(TraceName(0, parts[0]), parts[0]);
  if (parts.size() > 1) env.add("/run/0_posix_counters.json", parts[1]);
  if (parts.size() > 2) env.add(TraceName(1, parts[2]), parts[2]);
  fuzz::ExpectOnlyInputErrors([&] {
    const trace_summary::TraceSummary summary = trace_summary::SummarizeRun(env, "/run");
    trace_summary::FormatText(summary);
    trace_summary::FormatJson(summary);
  });
  return 0;
}
