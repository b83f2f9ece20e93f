#include "workflow/stage_phase.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "generation/generation.h"
#include "storage/env_wrapper.h"
#include "support/expect_error.h"
#include "support/staging_config.h"
#include "support/test_support.h"
#include "util/error.h"

namespace dlbench::workflow {
namespace {

namespace fs = std::filesystem;

// 6 train + 2 eval NPY files on tier pfs (<dir>/pfs), staged to tier nvme (<dir>/nvme).
config::Config Tiered(const fs::path& dir) {
  config::Config config = test::StagingConfig(dir);
  config.dataset.num_files_train = 6;
  config.dataset.num_files_eval = 2;
  config.dataset.num_samples_per_file = 2;
  config.stage.all_files = true;
  return config;
}

// A file system with `free` bytes free.
class SmallDiskEnv final : public storage::EnvWrapper {
 public:
  SmallDiskEnv(Env& target, Bytes free) : EnvWrapper(target), free_(free) {}
  Bytes free_space(const std::string&) override { return free_; }

 private:
  Bytes free_;
};

// A rerun that finds every file staged copies nothing: "0 B in 0 files ... : 0.000 GiB/s" read
// as storage that delivered nothing. The line keeps the counts and drops the rate.
TEST(StageLine, NothingCopiedHasNoRate) {
  metrics::Json stage = {{"policy", "before_training"}, {"to", "/nvme/ds"}, {"files", 0},
                         {"skipped_files", 7},          {"bytes", 0},       {"seconds", 0.013},
                         {"GiB_per_second", 0.0}};
  EXPECT_EQ(StageLine(stage),
            "staged (before_training) 0 B in 0 files (7 already there) to /nvme/ds in 0.013 s\n");
  stage["files"] = 7;
  stage["skipped_files"] = 0;
  stage["bytes"] = GiB;
  stage["seconds"] = 2.0;
  stage["GiB_per_second"] = 0.5;
  EXPECT_EQ(StageLine(stage),
            "staged (before_training) 1 GiB in 7 files (0 already there) to /nvme/ds in 2.000 s: "
            "0.500 GiB/s\n");
  stage["files"] = 1;
  EXPECT_EQ(StageLine(stage),
            "staged (before_training) 1 GiB in 1 file (0 already there) to /nvme/ds in 2.000 s: "
            "0.500 GiB/s\n");
}

TEST(StagedDataFolder, IsTheDataFoldersPathUnderTheToTier) {
  test::TempDir dir;
  config::Config config = Tiered(dir.path());
  EXPECT_EQ(StagedDataFolder(config), (dir / "nvme/data").string());
  config.stage.from = "pfs";
  EXPECT_EQ(StagedDataFolder(config), (dir / "nvme/data").string());
}

// config::Validate refuses these at load (tests/unit/config/storage_rules_test.cpp): meeting one
// here is a bug.
TEST(StagedDataFolder, AConfigurationValidationRefusesIsAnInternalError) {
  test::TempDir dir;
  config::Config config = Tiered(dir.path());
  config.stage.from = "nvme";  // data_folder is not under nvme
  dlbench::test::ExpectError([&] { StagedDataFolder(config); }, ExitCode::kInternal,
                             {"is not under tier nvme"});
  config.stage.from = "pfs";
  config.stage.to = "pfs";
  dlbench::test::ExpectError([&] { StagedDataFolder(config); }, ExitCode::kInternal,
                             {"already on tier pfs"});
  config.stage.to = "ssd";
  dlbench::test::ExpectError([&] { StagedDataFolder(config); }, ExitCode::kInternal,
                             {"stage.to: 'ssd'"});
}

TEST(RunStagePhase, AFileSystemWithoutTheFreeSpaceIsAnIoErrorBeforeAnyCopy) {
  test::TempDir dir;
  const config::Config config = Tiered(dir.path());
  generation::GenerateDataset(config, test::World(), storage::PosixEnv());
  SmallDiskEnv small(storage::PosixEnv(), 1000);
  RunResults results(dir.path(), test::World());
  dlbench::test::ExpectError(
      [&] { RunStagePhase(config, /*quiet=*/true, test::World(), small, results); }, ExitCode::kIo,
      {"tier nvme is full"});
  EXPECT_FALSE(fs::exists(dir / "nvme/data/train/img_0_of_6.npy"));

  SmallDiskEnv roomy(storage::PosixEnv(), Bytes{1} << 30);
  RunStagePhase(config, /*quiet=*/true, test::World(), roomy, results);
  EXPECT_TRUE(fs::exists(dir / "nvme/data/train/img_0_of_6.npy"));
  EXPECT_EQ(results.summary()["stage"]["files"], 8u);
}

}  // namespace
}  // namespace dlbench::workflow
