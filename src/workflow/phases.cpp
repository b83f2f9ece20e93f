#include "workflow/phases.h"

#include "util/error.h"
#include "workflow/checkpoint_phase.h"
#include "workflow/generate_phase.h"
#include "workflow/run_results.h"
#include "workflow/train_phase.h"

namespace dlbench::workflow {

const char* PhaseName(Phase phase) {
  switch (phase) {
    case Phase::kGenerate: return "generate";
    case Phase::kTrain: return "train";
    case Phase::kCheckpoint: return "checkpoint";
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

namespace {

// Phases that are implemented in this build. A phase not listed here is refused with a plain
// message rather than faked.
bool IsBuilt(Phase phase) {
  return phase == Phase::kGenerate || phase == Phase::kTrain || phase == Phase::kCheckpoint;
}

}  // namespace

int Run(const config::Config& config, const RunRequest& request, const mpi::Communicator& comm) {
  if (request.phases.empty()) {
    throw UsageError(
        "the workload enables no phase (workflow.generate_data, workflow.train and "
        "workflow.checkpoint are all false); nothing to run");
  }
  std::string missing;
  for (Phase phase : request.phases) {
    if (!IsBuilt(phase)) missing += (missing.empty() ? "" : ", ") + std::string(PhaseName(phase));
  }
  if (!missing.empty()) {
    throw UsageError("not built yet in this version of dlbench: " + missing +
                     ". The configuration was resolved and written to " +
                     request.output_folder.string() + "; no phase was run.");
  }
  RunResults results(request.output_folder, comm);
  for (Phase phase : request.phases) {
    switch (phase) {
      case Phase::kGenerate:
        RunGeneratePhase(config, request.quiet, comm, results);
        break;
      case Phase::kTrain:
        RunTrainPhase(config, request, comm, results);
        break;
      case Phase::kCheckpoint:
        RunCheckpointPhase(config, request, comm, results);
        break;
    }
  }
  return 0;
}

}  // namespace dlbench::workflow
