#include "workflow/phases.h"

#include <algorithm>
#include <map>
#include <new>
#include <string>

#include "generation/dataset_removal.h"
#include "metrics/clock.h"
#include "mpi/agreement.h"
#include "staging/tier_counts.h"
#include "storage/counting_env.h"
#include "util/build_info.h"
#include "util/error.h"
#include "util/sink.h"
#include "workflow/checkpoint_phase.h"
#include "workflow/folder_claim.h"
#include "workflow/generate_phase.h"
#include "workflow/interruption.h"
#include "workflow/request_summary.h"
#include "workflow/run_counters.h"
#include "workflow/run_info.h"
#include "workflow/run_insights.h"
#include "workflow/run_results.h"
#include "workflow/run_storage.h"
#include "workflow/run_trace.h"
#include "workflow/stage_phase.h"
#include "workflow/storage_tiers.h"
#include "workflow/train_phase.h"

namespace dlbench::workflow {

const char* PhaseName(Phase phase) {
  switch (phase) {
    case Phase::kGenerate:
      return "generate";
    case Phase::kStage:
      return "stage";
    case Phase::kTrain:
      return "train";
    case Phase::kCheckpoint:
      return "checkpoint";
  }
  return "?";
}

std::vector<Phase> PhasesFromWorkflow(const config::WorkflowConfig& workflow,
                                      config::StagePolicy policy) {
  std::vector<Phase> phases;
  if (workflow.generate_data) phases.push_back(Phase::kGenerate);
  if (workflow.stage && policy == config::StagePolicy::kBeforeTraining) {
    phases.push_back(Phase::kStage);
  }
  if (workflow.train) phases.push_back(Phase::kTrain);
  // With train on, checkpoints happen inside training; alone, they are checkpoint-only mode.
  if (workflow.checkpoint && !workflow.train) phases.push_back(Phase::kCheckpoint);
  if (phases.empty()) {
    // Every rank reads the same configuration: they all fail here together, before the output
    // folder is made (it was made, with config.yaml, and the run refused after).
    throw UsageError(
        "the workload enables no phase (workflow.generate_data, workflow.train and "
        "workflow.checkpoint are all false); nothing to run")
        .mark_collective();
  }
  return phases;
}

namespace {

bool Contains(const std::vector<Phase>& phases, Phase phase) {
  return std::find(phases.begin(), phases.end(), phase) != phases.end();
}

}  // namespace

config::Config ConfigAsRun(const config::Config& config, const std::vector<Phase>& phases) {
  config::Config as_run = config;
  config::WorkflowConfig& workflow = as_run.workflow;
  const bool trains = Contains(phases, Phase::kTrain);
  workflow.generate_data = Contains(phases, Phase::kGenerate);
  workflow.train = trains;
  workflow.evaluation = trains && config.workflow.evaluation;
  workflow.checkpoint =
      Contains(phases, Phase::kCheckpoint) || (trains && config.workflow.checkpoint);
  workflow.stage = Contains(phases, Phase::kStage) || (trains && config.workflow.stage);
  return as_run;
}

namespace {

// DLIO's first log line: "Running DLIO [Training & Checkpointing] with 8 process(es)".
std::string RunningLine(const std::vector<Phase>& phases, int ranks) {
  std::string names;
  for (Phase phase : phases) names += (names.empty() ? "" : " & ") + std::string(PhaseName(phase));
  return "Running dlbench [" + names + "] with " + std::to_string(ranks) + " process(es)";
}

}  // namespace

namespace {

// The phases of Run, each announced in run_status (run_results.h) before it starts; throws what
// they throw.
void RunPhases(const config::Config& config, const RunRequest& request,
               const mpi::Communicator& comm, RunResults& results) {
  const std::string start = metrics::NowLocalRfc3339();
  const bool generates = Contains(request.phases, Phase::kGenerate);
  const bool trains = Contains(request.phases, Phase::kTrain);
  const bool staging = config.workflow.stage || Contains(request.phases, Phase::kStage);
  // Before any byte is written: the folders the phases write into are dlbench's (or --force),
  // on every node that has its own.
  FolderUse use;
  use.generates = generates;
  use.stages = Contains(request.phases, Phase::kStage) ||
               (trains && config.workflow.stage &&
                config.stage.policy != config::StagePolicy::kBeforeTraining);
  use.checkpoints = (Contains(request.phases, Phase::kCheckpoint) &&
                     config.checkpoint.num_checkpoints_write > 0) ||
                    (trains && config.workflow.checkpoint);
  use.reads = trains;
  std::vector<WrittenFolder> folders;
  mpi::AgreeOnFailure(comm, [&] { folders = WrittenFolders(config, use); });
  const std::unique_ptr<storage::TierEnv> storage = MakeRunStorage(config, use, comm);
  ClaimFolders(folders, request.force, *storage, comm);
  AnnounceEmulation(*storage, request.quiet, comm);
  // Darshan's POSIX counters, always on, above the tiers: they see what the workload saw, and
  // staging runs group their per-path records by tier (staging/tier_counts.h).
  const std::vector<std::string> checkpoint_folders = CheckpointFolders(config);
  storage::CountingEnv counted(*storage);
  // Within profiling.counters_memory_mib; files beyond it fold into one record per checkpoint
  // folder (so that rank_imbalance can leave their reads out), per tier (so that staging's
  // per-tier counts stay whole) or one for the paths under no tier.
  counted.limit_records(
      static_cast<Bytes>(config.profiling.counters_memory_mib) * MiB,
      [tiers = storage.get(), &checkpoint_folders](const std::string& path) {
        if (const std::string* folder = CheckpointFolderHolding(checkpoint_folders, path)) {
          return *folder;
        }
        const storage::TierSpec* tier = tiers->tier_of(path);
        return tier != nullptr ? tier->path : std::string(storage::CountingEnv::kFoldedPath);
      });
  results.add(WorkloadIdentity(ConfigAsRun(config, request.phases)));
  results.add(PageCacheSettings(config));
  results.add(EmulationSummary(*storage));
  RunTrace trace(config, request.output_folder, counted, comm);
  if (staging) mpi::AgreeOnFailure(comm, [&] { StagedDataFolder(config); });
  config::Config staged;
  const config::Config* active = &config;  // the staged copy's after kStage
  for (Phase phase : request.phases) {
    results.begin_phase(PhaseName(phase));
    switch (phase) {
      case Phase::kGenerate:
        RunGeneratePhase(config, request.quiet, comm, trace.env(), results);
        break;
      case Phase::kStage:
        RunStagePhase(config, request.quiet, comm, trace.env(), results);
        staged = StagedConfig(config);
        active = &staged;
        break;
      case Phase::kTrain: {
        // The tiers training read (only the fast one after staging): the counts it added.
        std::map<std::string, storage::IoCounts> before;
        if (staging) before = staging::CountsPerTier(*storage, counted.files());
        RunTrainPhase(*active, request, comm, trace.env(), results);
        if (staging) {
          results.add(
              TierCountsSummary(before, staging::CountsPerTier(*storage, counted.files()), comm));
        }
        break;
      }
      case Phase::kCheckpoint:
        RunCheckpointPhase(*active, request, comm, trace.env(), results);
        break;
    }
    mpi::PublishWarnings(comm);  // what the phase's ranks raised, once, right after its table
  }
  // Training and checkpointing write DLIO's header with their metrics; without them the run
  // still says where, on how many ranks and hosts, and when it ran (MLPerf's tools read it).
  if (!trains && !Contains(request.phases, Phase::kCheckpoint)) {
    results.add(RunHeader(config, comm, start));
  }
  results.begin_phase(kFinishPhase);
  if (generation::RemovesDatasetAtEnd(config, generates,
                                      trains || Contains(request.phases, Phase::kCheckpoint))) {
    generation::RemoveGeneratedDataset(config, *storage, request.quiet, comm);
  }
  WriteRunCounters(counted, comm, results, request.quiet, checkpoint_folders);
  results.add(RequestSummary(*storage, comm, request.quiet));
  results.add(trace.finish());
  results.add(FaultInjectionSummary(comm));
  results.add(RetrySummary(comm));
  AddRunInsights(config, results, request.quiet, comm);
}

}  // namespace

int Run(const config::Config& config, const RunRequest& request, const mpi::Communicator& comm) {
  // Rank 0's log of the run in the output folder (DLIO's dlio.log): all it says from here on,
  // including the error that may end the run.
  std::optional<sink::RunLog> log;
  if (comm.is_root()) {
    log.emplace((request.output_folder / config.output.log_file).string());
    sink::Log("INFO", RunningLine(request.phases, comm.size()));
    // A line of its own, so that DLIO's first line keeps its form for the scripts that read it.
    sink::Log("INFO", build::Description());
  }
  // summary.json says from its first write that the run is incomplete, and in which phase; a
  // failure seen by rank 0 adds its exit code and message, and only a run that got to the end
  // says it is complete.
  RunResults results(request.output_folder, comm);
  // From here, SIGINT / SIGTERM / SIGHUP are recorded in summary.json before the process ends.
  const Interruption interruption(results, comm.is_root());
  try {
    RunPhases(config, request, comm, results);
    results.complete();
  } catch (const Error& error) {
    results.fail(error.code(), error.what(), error.collective());
    throw;
  } catch (const std::bad_alloc&) {
    results.fail(ExitCode::kInternal, "out of memory");
    throw;
  } catch (const std::exception& error) {
    results.fail(ExitCode::kInternal, std::string("internal error: ") + error.what());
    throw;
  }
  return 0;
}

}  // namespace dlbench::workflow
