// DirectStore across ranks: a save writes exactly the union of every rank's planned files plus
// one manifest, a load with the recovery rank shift reads (and verifies) another rank's files,
// and one rank's I/O failure fails the save on every rank with one agreed message and no manifest.
// BurstBufferStore across ranks: a save that waits for room on the fast tier waits on every rank.
#include <gtest/gtest.h>

#include <cerrno>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "checkpoint/burst_buffer_store.h"
#include "checkpoint/checkpoint_store.h"
#include "checkpoint/direct_store.h"
#include "checkpoint/manifest.h"
#include "checkpoint/rank_mapping.h"
#include "storage/fault_injection_env.h"
#include "storage/tier_env.h"
#include "support/expect_error.h"
#include "support/shared_temp_dir.h"
#include "support/test_support.h"
#include "util/error.h"
#include "util/file_names.h"

namespace dlbench::checkpoint {
namespace {

namespace fs = std::filesystem;

// TP 2, ZeRO 1, DP = ranks / 2: model files from the first data-parallel group, one optimizer
// file per rank.
config::ModelConfig Model() {
  config::ModelConfig m;
  m.type = "transformer";
  m.num_layers = 4;
  m.transformer = {100, 32, 64, 4, 2};
  m.parallelism.tensor = 2;
  m.parallelism.zero_stage = 1;
  return m;
}

config::CheckpointConfig Settings(const dlbench::test::SharedTempDir& dir) {
  config::CheckpointConfig c;
  c.checkpoint_folder = dir.path().string();
  c.verify = true;
  c.write_threads = 2;
  return c;
}

TEST(DirectStoreMpi, SaveWritesExactlyThePlannedFilesOfAllRanks) {
  const mpi::Communicator comm = dlbench::test::World();
  dlbench::test::SharedTempDir dir(comm);
  const config::CheckpointConfig settings = Settings(dir);
  const CheckpointPlan plan(Model(), settings, comm.size());
  DirectStore store(settings, 11, comm, storage::PosixEnv(), 0);
  const StoreOpResult save = store.save("global_epoch1_step1", plan);
  EXPECT_EQ(save.bytes, plan.for_rank(comm.rank()).bytes);
  EXPECT_EQ(comm.sum(std::uint64_t{save.bytes}), plan.summarize().total_bytes);

  std::map<std::string, Bytes> expected{{file_names::kCheckpointManifest, 0}};
  for (Rank r = 0; r < comm.size(); ++r) {
    for (const PlannedFile& f : plan.for_rank(r).files) expected[f.name] = f.bytes;
  }
  std::map<std::string, Bytes> listing;
  for (const auto& entry : fs::directory_iterator(dir / "global_epoch1_step1")) {
    const std::string name = entry.path().filename().string();
    listing[name] = name == file_names::kCheckpointManifest ? 0 : entry.file_size();
  }
  EXPECT_EQ(listing, expected);
  EXPECT_EQ(listing.size(), plan.summarize().files + 1);
}

TEST(DirectStoreMpi, RankShiftReadsAndVerifiesTheNextRanksFiles) {
  const mpi::Communicator comm = dlbench::test::World();
  dlbench::test::SharedTempDir dir(comm);
  const config::CheckpointConfig settings = Settings(dir);
  const CheckpointPlan plan(Model(), settings, comm.size());
  DirectStore store(settings, 11, comm, storage::PosixEnv(), 0);
  store.save("global_epoch1_step1", plan);
  // As if every rank were alone on its node: read the files of rank r + 1.
  const Rank source = RecoveryRank(comm.rank(), 1, comm.size());
  EXPECT_EQ(source, (comm.rank() + 1) % comm.size());
  const StoreOpResult load = store.load("global_epoch1_step1", plan, source);
  EXPECT_EQ(load.bytes, plan.for_rank(source).bytes);
  EXPECT_EQ(comm.sum(std::uint64_t{load.bytes}), plan.summarize().total_bytes);
}

TEST(DirectStoreMpi, OneRanksFailureFailsTheSaveEverywhereWithoutManifest) {
  const mpi::Communicator comm = dlbench::test::World();
  dlbench::test::SharedTempDir dir(comm);
  const config::CheckpointConfig settings = Settings(dir);
  const CheckpointPlan plan(Model(), settings, comm.size());
  storage::FaultInjectionEnv env(storage::PosixEnv());
  if (comm.rank() == comm.size() - 1) {
    env.inject(storage::Fault(storage::FaultOp::kWrite).error(ENOSPC).on_paths_containing(".pt"));
  }
  DirectStore store(settings, 11, comm, env, 0);
  dlbench::test::ExpectCollectiveError([&] { store.save("global_epoch1_step1", plan); },
                                       ExitCode::kIo, {"No space left on device"});
  EXPECT_FALSE(IsCheckpointComplete(env, (dir / "global_epoch1_step1").string()));
  // The others' loads agree on the failure too.
  dlbench::test::ExpectCollectiveError(
      [&] { store.load("global_epoch1_step1", plan, comm.rank()); }, ExitCode::kIo,
      {"incomplete checkpoint"});
}

// with a tier capacity, rank 0 evaluated the room for a new checkpoint with a
// collective (Communicator::node_count) that only it called, so the first save that found a
// drain pending hung. The latency keeps the first drain pending when the second save starts.
TEST(BurstBufferStoreMpi, TierCapacityBackpressureWaitsOnEveryRank) {
  const mpi::Communicator comm = dlbench::test::World();
  dlbench::test::SharedTempDir dir(comm);
  config::Config config;
  config.model = Model();
  config.checkpoint = Settings(dir);
  config.checkpoint.checkpoint_folder = (dir / "pfs/ckpt").string();
  const CheckpointPlan plan(config.model, config.checkpoint, comm.size());
  config.storage.tiers = {
      {"nvme", (dir / "bb").string(), plan.summarize().total_bytes * 3 / 2, std::nullopt, 0.0},
      {"pfs", (dir / "pfs").string(), std::nullopt, std::nullopt, 0.05}};
  config.checkpoint.burst_buffer = config::BurstBufferConfig{};
  config.checkpoint.burst_buffer->tier = "nvme";
  config.checkpoint.burst_buffer->max_pending_checkpoints = 10;
  // Not `auto`, whose effect depends on whether $TMPDIR is in memory.
  config.checkpoint.burst_buffer->preallocate = config::Preallocate::kNo;
  std::vector<storage::TierSpec> specs;
  for (const config::TierConfig& t : config.storage.tiers) {
    specs.push_back({t.name, t.path, t.capacity, t.bandwidth_limit, t.latency});
  }
  storage::TierEnv env(storage::PosixEnv(), specs);
  BurstBufferStore store(config, comm, env, 0);
  EXPECT_EQ(store.save("global_epoch1_step1", plan).backpressure, 0.0);
  EXPECT_GT(store.save("global_epoch1_step2", plan).backpressure, 0.0) << "room for one only";
  EXPECT_EQ(store.finish().size(), 2u);
}

}  // namespace
}  // namespace dlbench::checkpoint
