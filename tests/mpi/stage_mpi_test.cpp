// Staging under mpiexec: each rank stages the files it will read (a file read by several ranks
// once), the staged copy is identical to the source, the counts add up over ranks, and a rerun
// copies nothing.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "generation/generation.h"
#include "storage/file.h"
#include "support/shared_temp_dir.h"
#include "support/staging_config.h"
#include "support/test_support.h"
#include "workflow/stage_phase.h"

namespace dlbench::workflow {
namespace {

namespace fs = std::filesystem;

std::string Slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// 9 train files of 1 sample, batch 2, 1 epoch, no evaluation and no shuffle: the ranks leave
// files unread (file 8 at 2 ranks; 2, 5 and 8 at 3), which are not staged.
config::Config Tiered(const fs::path& dir) {
  config::Config config = test::StagingConfig(dir);
  config.dataset.num_files_train = 9;
  config.dataset.num_files_eval = 0;
  config.dataset.num_samples_per_file = 1;
  config.reader.batch_size = 2;
  config.train.epochs = 1;
  config.stage.threads = 2;
  config.stage.verify = true;
  return config;
}

TEST(StageMpi, EachRankStagesWhatItReadsOnceAndTheCopyIsIdentical) {
  const mpi::Communicator comm = test::World();
  test::SharedTempDir dir;
  const config::Config config = Tiered(dir.path());
  generation::GenerateDataset(config, comm, storage::PosixEnv());
  RunResults results(dir.path(), comm);
  RunStagePhase(config, /*quiet=*/true, comm, storage::PosixEnv(), results);

  // Unshuffled, rank r reads positions [r·q, r·q + 2·⌊q/2⌋) with q = ⌊9/ranks⌋ (sampler.h).
  const auto ranks = static_cast<std::uint64_t>(comm.size());
  const std::uint64_t q = 9 / ranks;
  std::set<std::uint64_t> read;
  for (std::uint64_t r = 0; r < ranks; ++r) {
    for (std::uint64_t s = r * q; s < r * q + 2 * (q / 2); ++s) read.insert(s);
  }
  std::uint64_t staged = 0;
  for (int i = 0; i < 9; ++i) {
    const std::string name = "train/img_" + std::to_string(i) + "_of_9.npy";
    const fs::path copy = dir / ("nvme/data/" + name);
    EXPECT_EQ(fs::exists(copy), read.count(static_cast<std::uint64_t>(i)) == 1) << copy;
    if (!fs::exists(copy)) continue;
    EXPECT_EQ(Slurp(copy), Slurp(dir / ("pfs/data/" + name))) << copy;
    ++staged;
  }
  EXPECT_EQ(staged, read.size());
  if (comm.is_root()) {
    EXPECT_EQ(results.summary()["stage"]["files"], staged);
    EXPECT_EQ(results.summary()["stage"]["skipped_files"], 0u);
  }

  RunStagePhase(config, /*quiet=*/true, comm, storage::PosixEnv(), results);
  if (comm.is_root()) {
    EXPECT_EQ(results.summary()["stage"]["files"], 0u);
    EXPECT_EQ(results.summary()["stage"]["skipped_files"], staged);
  }
}

}  // namespace
}  // namespace dlbench::workflow
