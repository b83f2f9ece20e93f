#include <gtest/gtest.h>

#include <tuple>

#include "workflow/phases.h"
#include "workflow/run_info.h"

namespace dlbench::workflow {
namespace {

config::Config Workload(bool generate, bool train, bool checkpoint, bool evaluation) {
  config::Config config;
  config::WorkflowConfig& flags = config.workflow;
  std::tie(flags.generate_data, flags.train, flags.checkpoint, flags.evaluation) =
      std::tie(generate, train, checkpoint, evaluation);
  return config;
}

// `dlbench generate bert_v100` recorded train: true, checkpoint: true; `dlbench train default`
// recorded generate_data: true (mlpstorage then called the run folder a datagen run).
TEST(ConfigAsRun, RecordsThePhasesRunNotTheWorkloadsWorkflow) {
  const config::Config bert = Workload(false, true, true, false);
  const config::WorkflowConfig generated = ConfigAsRun(bert, {Phase::kGenerate}).workflow;
  EXPECT_TRUE(generated.generate_data);
  EXPECT_FALSE(generated.train);
  EXPECT_FALSE(generated.checkpoint);
  EXPECT_TRUE(generated.generate_only());
  EXPECT_EQ(WorkloadIdentity(ConfigAsRun(bert, {Phase::kGenerate}))["workload"]["train"], false);
  EXPECT_EQ(WorkloadIdentity(ConfigAsRun(bert, {Phase::kGenerate}))["workload"]["checkpoint"],
            false);

  const config::Config dflt = Workload(true, true, false, true);
  const config::WorkflowConfig trained = ConfigAsRun(dflt, {Phase::kTrain}).workflow;
  EXPECT_FALSE(trained.generate_data);
  EXPECT_TRUE(trained.train);
  EXPECT_TRUE(trained.evaluation);  // inside training, as the workload says
  EXPECT_FALSE(trained.checkpoint);

  // Checkpoint-only of a training workload; training keeps its checkpoints.
  const config::WorkflowConfig alone = ConfigAsRun(bert, {Phase::kCheckpoint}).workflow;
  EXPECT_TRUE(alone.checkpoint_only());
  EXPECT_FALSE(alone.evaluation);
  EXPECT_TRUE(ConfigAsRun(bert, {Phase::kTrain}).workflow.checkpoint);

  // `dlbench run`: the workflow's own phases are recorded as they are.
  EXPECT_EQ(ConfigAsRun(dflt, PhasesFromWorkflow(dflt.workflow)).workflow, dflt.workflow);
  EXPECT_EQ(ConfigAsRun(bert, PhasesFromWorkflow(bert.workflow)).workflow, bert.workflow);
}

}  // namespace
}  // namespace dlbench::workflow
