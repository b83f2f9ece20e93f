#include "workflow/generate_phase.h"

#include <sstream>
#include <string>

#include "generation/generation.h"
#include "generation/generation_resume.h"
#include "metrics/cross_rank.h"
#include "metrics/run_reduction.h"
#include "metrics/summary.h"
#include "util/sink.h"

namespace dlbench::workflow {
namespace {

metrics::Json GenerationPart(const metrics::Json& generation,
                             const generation::RankGeneration& root, const config::Config& config) {
  metrics::Json part = generation;
  part["data_folder"] = config.dataset.data_folder;
  part["format"] = config::ToString(config.dataset.format);
  part["layout"] = root.shared_files ? "shared_files" : "file_per_rank";
  part["files_kept"] = root.files_kept;
  part["partial_files_removed"] = root.partials_removed;
  part["content"] = {{"kind", config::ToString(config.dataset.content.kind)},
                     {"seed", generation::ContentSeed(config)},
                     {"encoding", config::ToString(config.dataset.content.encoding)}};
  return part;
}

}  // namespace

void RunGeneratePhase(const config::Config& config, bool quiet, const mpi::Communicator& comm,
                      storage::Env& env, RunResults& results) {
  const generation::RankGeneration mine = generation::GenerateDataset(config, comm, env);
  const metrics::GenerationMetrics all = metrics::ReduceGeneration(comm, mine.io);
  const std::uint64_t kept = comm.sum(mine.files_kept);
  if (!comm.is_root()) return;
  generation::RankGeneration root = mine;
  root.files_kept = kept;
  results.add({{"generation", GenerationPart(metrics::BuildGenerationSummary(all), root, config)}});
  if (!quiet) {
    std::ostringstream text;
    text << "generate: " << config.dataset.data_folder << " ("
         << config::ToString(config.dataset.format) << ", "
         << (mine.shared_files ? "shared files written by all ranks" : "files per rank")
         << (kept > 0 ? ", " + std::to_string(kept) + " complete files kept" : "")
         << (mine.partials_removed > 0
                 ? ", " + std::to_string(mine.partials_removed) + " partial files removed"
                 : "")
         << ")\n"
         << metrics::GenerationTable(all);
    sink::Result(text.str());
  }
}

}  // namespace dlbench::workflow
