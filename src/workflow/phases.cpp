#include "workflow/phases.h"

#include "util/error.h"
#include "workflow/checkpoint_phase.h"
#include "workflow/generate_phase.h"
#include "workflow/run_info.h"
#include "workflow/run_results.h"
#include "workflow/run_trace.h"
#include "workflow/storage_tiers.h"
#include "workflow/train_phase.h"

namespace dlbench::workflow {

const char* PhaseName(Phase phase) {
  switch (phase) {
    case Phase::kGenerate:
      return "generate";
    case Phase::kTrain:
      return "train";
    case Phase::kCheckpoint:
      return "checkpoint";
  }
  return "?";
}

std::vector<Phase> PhasesFromWorkflow(const config::WorkflowConfig& workflow) {
  std::vector<Phase> phases;
  if (workflow.generate_data) phases.push_back(Phase::kGenerate);
  if (workflow.train) phases.push_back(Phase::kTrain);
  // With train on, checkpoints happen inside training; alone, they are checkpoint-only mode.
  if (workflow.checkpoint && !workflow.train) phases.push_back(Phase::kCheckpoint);
  return phases;
}

int Run(const config::Config& config, const RunRequest& request, const mpi::Communicator& comm) {
  if (request.phases.empty()) {
    // Every rank reads the same configuration: they all fail here together.
    throw UsageError(
        "the workload enables no phase (workflow.generate_data, workflow.train and "
        "workflow.checkpoint are all false); nothing to run")
        .mark_collective();
  }
  const std::unique_ptr<storage::TierEnv> storage =
      MakeRunStorage(config, storage::PosixEnv(), request.quiet, comm);
  RunResults results(request.output_folder, comm);
  results.Add(WorkloadIdentity(config));
  results.Add(EmulationSummary(*storage));
  RunTrace trace(config, request.output_folder, *storage, comm);
  for (Phase phase : request.phases) {
    switch (phase) {
      case Phase::kGenerate:
        RunGeneratePhase(config, request.quiet, comm, trace.env(), results);
        break;
      case Phase::kTrain:
        RunTrainPhase(config, request, comm, trace.env(), results);
        break;
      case Phase::kCheckpoint:
        RunCheckpointPhase(config, request, comm, trace.env(), results);
        break;
    }
  }
  results.Add(trace.Finish());
  return 0;
}

}  // namespace dlbench::workflow
