// The phases a run can execute and the orchestration of them.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "config/config.h"
#include "config/phase.h"
#include "mpi/communicator.h"

namespace dlbench::workflow {

// config/phase.h: the configuration's rules depend on which phases run.
using Phase = config::Phase;

const char* PhaseName(Phase phase);

// The phases the YAML's workflow section enables, in execution order (kStage for workflow.stage
// with the before_training policy; the others stage during training). Throws Error(kUsage) when
// it enables none.
std::vector<Phase> PhasesFromWorkflow(
    const config::WorkflowConfig& workflow,
    config::StagePolicy policy = config::StagePolicy::kBeforeTraining);

// `config` with the workflow section of what runs: `phases` (and, inside training, the
// evaluation, checkpoints and staging its workflow section enables), not what the workload file
// enables. config.yaml, dlio_config/ and summary.json's `workload` record it, so that a tool that
// classifies a run by those flags (MLPerf's mlpstorage: generate_data means a datagen run) reads
// what ran: `dlbench generate` of a training workload records train: false.
config::Config ConfigAsRun(const config::Config& config, const std::vector<Phase>& phases);

struct RunRequest {
  std::vector<Phase> phases;
  std::filesystem::path output_folder;
  bool quiet = false;     // no table and no progress line on the terminal
  bool progress = false;  // live progress line on rank 0 (resolved by ShowProgress)
  bool force = false;     // --force: write into folders dlbench did not make (folder_claim.h)
};

// Runs `request.phases` in order on every rank, after claiming the folders they write into
// (folder_claim.h). After kStage, the later phases read the staged
// copy of the dataset (stage_phase.h). Returns the process exit code.
// Throws dlbench::Error on failure.
int Run(const config::Config& config, const RunRequest& request, const mpi::Communicator& comm);

}  // namespace dlbench::workflow
