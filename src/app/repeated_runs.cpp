#include "app/repeated_runs.h"

#include <algorithm>

#include "app/workload_loading.h"
#include "compare/aggregate.h"
#include "generation/dataset_removal.h"
#include "insights/insights.h"
#include "mpi/agreement.h"
#include "util/error.h"
#include "util/file_names.h"
#include "util/sink.h"
#include "workflow/output_folder.h"
#include "workflow/progress_line.h"
#include "workflow/run_results.h"
#include "workflow/run_storage.h"

namespace dlbench::app {
int RunInFolder(const config::Config& config, const std::vector<workflow::Phase>& phases,
                const std::filesystem::path& folder, const WorkloadOptions& options,
                const mpi::Communicator& comm) {
  workflow::RunRequest request;
  request.phases = phases;
  request.output_folder = folder;
  request.quiet = options.quiet;
  request.progress = workflow::ShowProgress(options.progress, options.quiet);
  request.force = options.force;
  workflow::PrepareOutputFolder(folder, workflow::ConfigAsRun(config, phases), options.force, comm);
  return workflow::Run(config, request, comm);
}

namespace {

int RunOnce(const WorkloadOptions& options, const std::vector<workflow::Phase>& phases,
            const std::filesystem::path& folder, const mpi::Communicator& comm) {
  return RunInFolder(LoadWorkload(options, comm), phases, folder, options, comm);
}

}  // namespace

int RunRepeated(const WorkloadOptions& options, const config::Config& base,
                const std::vector<workflow::Phase>& phases, const RepeatOptions& repeat,
                const mpi::Communicator& comm) {
  // A rerun of staging copies only what is missing: runs 2..N copied nothing and reported
  // 0 GiB/s, and the set's median staging rate was meaningless.
  if (phases.size() == 1 && phases[0] == workflow::Phase::kStage) {
    throw UsageError("stage --repeat: a rerun copies only what is missing, so runs 2.." +
                     std::to_string(repeat.count) +
                     " would copy nothing; run `dlbench stage` once per measurement, removing "
                     "the staged copy in between")
        .mark_collective();
  }
  const std::filesystem::path folder = workflow::ResolveOutputFolder(base, options.output, comm);
  workflow::ClaimOutputFolder(folder, options.force, comm);  // aggregate.json goes there
  std::vector<workflow::Phase> each = phases;
  const bool generates =
      std::find(phases.begin(), phases.end(), workflow::Phase::kGenerate) != phases.end();
  const bool generation_only = generates && phases.size() == 1;
  if (generates && !generation_only) {
    const int code = RunOnce(options, {workflow::Phase::kGenerate}, folder / "generate", comm);
    if (code != 0) return code;
    each.erase(std::remove(each.begin(), each.end(), workflow::Phase::kGenerate), each.end());
  }
  if (generation_only) {
    // Generation keeps complete files: into a folder of an earlier set it would write nothing
    // and report a meaningless rate.
    mpi::AgreeOnFailure(comm, [&] {
      if (!comm.is_root()) return;
      for (int i = 1; i <= repeat.count; ++i) {
        const std::string run = base.dataset.data_folder + "/run-" + std::to_string(i);
        if (std::filesystem::exists(run)) {
          throw UsageError(run + " exists: a repeated generation writes fresh folders " +
                           base.dataset.data_folder + "/run-<i>; remove them first");
        }
      }
    });
  }
  compare::RunSet runs;
  runs.argument = folder.string();
  for (int i = 1; i <= repeat.count; ++i) {
    const std::string name = "run-" + std::to_string(i);
    WorkloadOptions run_options = options;
    if (!repeat.fixed_seed) {
      run_options.overrides.push_back("++workload.train.seed=" +
                                      std::to_string(base.train.seed + i - 1));
    }
    if (generation_only) {
      run_options.overrides.push_back("++workload.dataset.data_folder=" + base.dataset.data_folder +
                                      "/" + name);
    }
    if (!options.quiet && comm.is_root()) {
      sink::Result("dlbench: run " + std::to_string(i) + " of " + std::to_string(repeat.count) +
                   " into " + (folder / name).string() + "\n");
    }
    const int code = RunOnce(run_options, each, folder / name, comm);
    if (code != 0) return code;
    if (comm.is_root()) runs.runs.push_back(compare::LoadRunSet((folder / name).string()).runs[0]);
  }
  // keep_files: false removes the dataset the set generated once, after its last run.
  const bool uses_data = std::any_of(each.begin(), each.end(), [](workflow::Phase phase) {
    return phase == workflow::Phase::kTrain || phase == workflow::Phase::kCheckpoint;
  });
  if (generation::RemovesDatasetAtEnd(base, generates && !generation_only, uses_data)) {
    const auto storage = workflow::MakeRunStorage(base, {}, comm);
    generation::RemoveGeneratedDataset(base, *storage, options.quiet, comm);
  }
  if (comm.is_root()) {
    metrics::Json aggregate = compare::AggregateRuns(runs, folder.string());
    // The set's findings: each run's, and those only the set shows (a rerun served from cache).
    std::vector<metrics::Json> summaries;
    for (const compare::Run& run : runs.runs) summaries.push_back(run.summary);
    const std::vector<insights::Finding> findings = insights::SetFindings(summaries);
    aggregate[insights::kInsightsKey] = insights::InsightsPart(findings)[insights::kInsightsKey];
    workflow::WriteFileAtomically(folder / file_names::kAggregate, aggregate.dump(2) + "\n");
    if (!options.quiet) {
      sink::Result(compare::AggregateTable(aggregate) + insights::TerminalLines(findings));
    }
  }
  return 0;
}

}  // namespace dlbench::app
