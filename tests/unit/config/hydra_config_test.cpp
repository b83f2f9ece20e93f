// A DLIO or MLPerf Storage config folder (configs/dlio) holds Hydra's top-level config.yaml next
// to its workload/ folder: `workloads --config-dir` listed it as a workload "config" that then
// failed to load.
#include <gtest/gtest.h>

#include "config/workload_catalog.h"
#include "support/expect_error.h"
#include "support/test_support.h"

namespace dlbench::config {
namespace {

constexpr const char* kHydraConfig = R"(# A set of configuration
defaults:
  - _self_
  - workload: default
  - override hydra/job_logging: disabled
  - override hydra/hydra_logging: disabled
hydra:
  run:
    dir: ./hydra_log/${workload.model}/${now:%Y-%m-%d}-${now:%H-%M-%S}
)";

constexpr const char* kWorkload = R"(# unet3d on H100
model:
  name: unet3d
workflow:
  generate_data: false
  train: true
dataset:
  data_folder: data/unet3d
)";

TEST(HydraTopLevelConfig, IsNotListedOrResolvedAsAWorkload) {
  const test::TempDir dir;
  dir.write("config.yaml", kHydraConfig);
  dir.write("workload/unet3d_h100.yaml", kWorkload);
  dir.write("workload/broken.yaml", "model: [unclosed");
  EXPECT_TRUE(IsHydraTopLevelConfig(dir / "config.yaml"));
  EXPECT_FALSE(IsHydraTopLevelConfig(dir / "workload/unet3d_h100.yaml"));
  EXPECT_FALSE(IsHydraTopLevelConfig(dir / "workload/broken.yaml"));  // its load says why
  // A workload may use Hydra's defaults too: it has its sections.
  dir.write("workload/with_defaults.yaml", std::string("defaults:\n  - _self_\n") + kWorkload);
  EXPECT_FALSE(IsHydraTopLevelConfig(dir / "workload/with_defaults.yaml"));

  const WorkloadCatalog catalog({dir.path().string()}, "");
  std::vector<std::string> names;
  for (const WorkloadEntry& entry : catalog.list()) names.push_back(entry.name);
  EXPECT_EQ(names, (std::vector<std::string>{"broken", "unet3d_h100", "with_defaults"}));
  EXPECT_EQ(catalog.resolve("unet3d_h100"), dir / "workload" / "unet3d_h100.yaml");
  test::ExpectError([&] { catalog.resolve("config"); }, ExitCode::kUsage,
                    {(dir / "config.yaml").string(), "is Hydra's top-level configuration",
                     "not a workload", "dlbench workloads --config-dir"});
}

}  // namespace
}  // namespace dlbench::config
