#include "workflow/run_insights.h"

#include <vector>

#include "insights/facts_from_summary.h"
#include "insights/insights.h"
#include "util/sink.h"

namespace dlbench::workflow {

void AddRunInsights(const config::Config& config, RunResults& results, bool quiet,
                    const mpi::Communicator& comm) {
  if (!comm.is_root()) return;
  insights::RunFacts facts = insights::FactsFromSummary(results.snapshot());
  facts.read_threads = static_cast<int>(config.reader.read_threads);
  if (config.checkpoint.burst_buffer) {
    facts.burst_buffer_slots = config.checkpoint.burst_buffer->max_pending_checkpoints;
  }
  const std::vector<insights::Finding> findings = insights::Evaluate(facts);
  results.add(insights::InsightsPart(findings));
  if (!quiet) {
    const std::string lines = insights::TerminalLines(findings);
    if (!lines.empty()) sink::Result(lines);
  }
}

}  // namespace dlbench::workflow
