// A node-local burst buffer across emulated nodes (DLBENCH_NODE per rank, one fast-tier folder per
// node): each node's folder holds exactly its ranks' files and its own copy of the manifest, the
// checkpoint folder gets one durable manifest, no rank touches another node's folder (a recording
// Env sees every path each rank uses), and a drain that failed on one node resumes in a new store.
// Run at 2, 3 and 4 ranks, emulating 2 and 3 nodes of 1-2 ranks (rank r on node r % nodes).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "checkpoint/burst_buffer_store.h"
#include "checkpoint/manifest.h"
#include "mpi/nodes.h"
#include "storage/env_wrapper.h"
#include "storage/fault_injection_env.h"
#include "support/expect_error.h"
#include "support/shared_temp_dir.h"
#include "support/test_support.h"
#include "util/error.h"
#include "util/file_names.h"

namespace dlbench::checkpoint {
namespace {

namespace fs = std::filesystem;

// Every path this rank's store touches, through any operation.
class RecordingEnv final : public storage::EnvWrapper {
 public:
  explicit RecordingEnv(storage::Env& target) : EnvWrapper(target) {}
  std::unique_ptr<storage::ReadableFile> open_read(const std::string& path,
                                                   const storage::OpenOptions& o) override {
    return EnvWrapper::open_read(saw(path), o);
  }
  std::unique_ptr<storage::WritableFile> create(const std::string& path,
                                                const storage::OpenOptions& o) override {
    return EnvWrapper::create(saw(path), o);
  }
  std::unique_ptr<storage::WritableFile> create_for_publish(
      const std::string& path, const storage::PublishOptions& o) override {
    return EnvWrapper::create_for_publish(saw(path), o);
  }
  std::unique_ptr<storage::WritableFile> open_write(const std::string& path,
                                                    const storage::OpenOptions& o) override {
    return EnvWrapper::open_write(saw(path), o);
  }
  void rename(const std::string& from, const std::string& to) override {
    EnvWrapper::rename(saw(from), saw(to));
  }
  void create_directories(const std::string& p) override { EnvWrapper::create_directories(saw(p)); }
  void remove(const std::string& p) override { EnvWrapper::remove(saw(p)); }
  void remove_tree(const std::string& p) override { EnvWrapper::remove_tree(saw(p)); }
  void for_each_entry(const std::string& p, const EntryVisitor& visit) override {
    EnvWrapper::for_each_entry(saw(p), visit);
  }
  bool exists(const std::string& p) override { return EnvWrapper::exists(saw(p)); }
  Bytes file_size(const std::string& p) override { return EnvWrapper::file_size(saw(p)); }
  void sync_directory(const std::string& p) override { EnvWrapper::sync_directory(saw(p)); }
  Bytes free_space(const std::string& p) override { return EnvWrapper::free_space(saw(p)); }

  std::set<std::string> paths() const {
    std::lock_guard lock(mutex_);
    return paths_;
  }

 private:
  const std::string& saw(const std::string& path) {
    std::lock_guard lock(mutex_);
    paths_.insert(path);
    return path;
  }
  mutable std::mutex mutex_;
  std::set<std::string> paths_;
};

// Sets DLBENCH_NODE for this rank while in scope.
class EmulatedNode {
 public:
  explicit EmulatedNode(const std::string& name) { setenv(mpi::kNodeVariable, name.c_str(), 1); }
  ~EmulatedNode() { unsetenv(mpi::kNodeVariable); }
};

std::string NodeName(Rank rank, int nodes) { return "n" + std::to_string(rank % nodes); }

class NodeLocalBurstBuffer : public ::testing::TestWithParam<int> {
 protected:
  NodeLocalBurstBuffer() : node_(NodeName(comm_.rank(), GetParam())) {
    config_.model.type = "transformer";
    config_.model.num_layers = 4;
    config_.model.transformer = {100, 32, 64, 4, 2};
    config_.model.parallelism.zero_stage = 1;  // an optimizer file on every rank
    config_.checkpoint.checkpoint_folder = (dir_ / "pfs/ckpt").string();
    config_.checkpoint.verify = true;
    config_.checkpoint.write_threads = 2;
    config::TierConfig tier{"nvme", local(node_), std::nullopt, std::nullopt, 0.0};
    tier.node_local = true;
    tier.path_template = (dir_ / "local" / config::kNodePlaceholder).string();
    config_.storage.tiers = {tier};
    config_.checkpoint.burst_buffer = config::BurstBufferConfig{};
    config_.checkpoint.burst_buffer->tier = "nvme";
    config_.checkpoint.burst_buffer->evict_after_drain = false;
    // What `auto` does depends on whether $TMPDIR is in memory; these tests record every file.
    config_.checkpoint.burst_buffer->preallocate = config::Preallocate::kNo;
  }
  bool skipped() const { return GetParam() > comm_.size(); }
  std::string local(const std::string& node) const { return (dir_ / "local" / node).string(); }
  // No path under another node's folder.
  void expect_only_own_node(const RecordingEnv& env) const {
    for (int n = 0; n < GetParam(); ++n) {
      const std::string other = "n" + std::to_string(n);
      if (other == node_) continue;
      for (const std::string& path : env.paths()) {
        EXPECT_FALSE(path.starts_with(local(other)))
            << "rank " << comm_.rank() << " on " << node_ << " touched " << path;
      }
    }
  }
  CheckpointPlan make_plan() const {
    return CheckpointPlan(config_.model, config_.checkpoint, comm_.size());
  }
  BurstBufferTuning tuning() const {
    BurstBufferTuning tuning;
    tuning.buffer_bytes = 4096;
    tuning.poll_interval = 0.002;
    tuning.marker_timeout = 30;
    return tuning;
  }

  const mpi::Communicator comm_ = dlbench::test::World();
  dlbench::test::SharedTempDir dir_{comm_};
  std::string node_;
  EmulatedNode emulated_{node_};
  config::Config config_;
};

// The files of `plan` that the ranks of `node` write, by name.
std::map<std::string, Bytes> NodeFiles(const CheckpointPlan& plan, const std::string& node,
                                       int nodes) {
  std::map<std::string, Bytes> files;
  for (Rank r = 0; r < plan.world(); ++r) {
    if (NodeName(r, nodes) != node) continue;
    for (const PlannedFile& f : plan.for_rank(r).files) files[f.name] = f.bytes;
  }
  return files;
}

std::map<std::string, Bytes> Listing(const fs::path& folder) {
  std::map<std::string, Bytes> listing;
  if (!fs::exists(folder)) return listing;
  for (const auto& entry : fs::directory_iterator(folder)) {
    const std::string name = entry.path().filename().string();
    listing[name] = name == file_names::kCheckpointManifest ? 0 : entry.file_size();
  }
  return listing;
}

TEST_P(NodeLocalBurstBuffer, EachNodeHoldsItsRanksFilesAndOneManifestIsDurable) {
  if (skipped()) GTEST_SKIP() << GetParam() << " nodes need as many ranks";
  const CheckpointPlan plan = make_plan();
  RecordingEnv env(storage::PosixEnv());
  {
    BurstBufferStore store(config_, comm_, env, 0, tuning());
    store.save("global_epoch1_step1", plan);
    EXPECT_EQ(store.finish().size(), 1u);
    // Every rank's source on its own node: read back from the fast tier.
    EXPECT_EQ(store.load("global_epoch1_step1", plan, comm_.rank()).tier, "nvme");
    // Rank r + 1 is on another node: the durable copy serves.
    const Rank next = (comm_.rank() + 1) % comm_.size();
    const StoreOpResult shifted = store.load("global_epoch1_step1", plan, next);
    EXPECT_EQ(shifted.tier, "checkpoint_folder");
    EXPECT_EQ(shifted.bytes, plan.for_rank(next).bytes);
  }
  expect_only_own_node(env);
  comm_.barrier();
  // Each node's folder: its ranks' files and the manifest, nothing of the other nodes.
  std::map<std::string, Bytes> expected = NodeFiles(plan, node_, GetParam());
  expected[file_names::kCheckpointManifest] = 0;
  EXPECT_EQ(Listing(fs::path(local(node_)) / "global_epoch1_step1"), expected);
  // The checkpoint folder: every file of every rank and one manifest, no markers left.
  std::map<std::string, Bytes> all{{file_names::kCheckpointManifest, 0}};
  for (Rank r = 0; r < plan.world(); ++r) {
    for (const PlannedFile& f : plan.for_rank(r).files) all[f.name] = f.bytes;
  }
  const fs::path capacity = fs::path(config_.checkpoint.checkpoint_folder) / "global_epoch1_step1";
  EXPECT_EQ(Listing(capacity), all);
  EXPECT_EQ(ReadManifest(storage::PosixEnv(), capacity.string()).files.size(), all.size() - 1);
}

TEST_P(NodeLocalBurstBuffer, EvictionEmptiesEveryNodesFolder) {
  if (skipped()) GTEST_SKIP() << GetParam() << " nodes need as many ranks";
  config_.checkpoint.burst_buffer->evict_after_drain = true;
  const CheckpointPlan plan = make_plan();
  RecordingEnv env(storage::PosixEnv());
  {
    BurstBufferStore store(config_, comm_, env, 0, tuning());
    store.save("global_epoch1_step1", plan);
    store.save("global_epoch1_step2", plan);
    EXPECT_EQ(store.finish().size(), 2u);
  }
  expect_only_own_node(env);
  comm_.barrier();
  EXPECT_EQ(Listing(local(node_)), (std::map<std::string, Bytes>{}));
  EXPECT_TRUE(IsCheckpointComplete(storage::PosixEnv(),
                                   config_.checkpoint.checkpoint_folder + "/global_epoch1_step2"));
}

TEST_P(NodeLocalBurstBuffer, ADrainFailedOnOneNodeResumesInANewStore) {
  if (skipped()) GTEST_SKIP() << GetParam() << " nodes need as many ranks";
  const CheckpointPlan plan = make_plan();
  const std::string name = "global_epoch1_step1";
  const std::string capacity = config_.checkpoint.checkpoint_folder + "/" + name;
  RecordingEnv recording(storage::PosixEnv());
  {
    // Node n1's drain cannot read its fast-tier files: its ranks fail, rank 0 stops waiting.
    storage::FaultInjectionEnv env(recording);
    if (node_ == "n1") {
      env.inject(storage::Fault(storage::FaultOp::kOpenRead)
                     .on_paths_containing("/local/n1/" + name + "/")
                     .keep_failing());
    }
    BurstBufferStore store(config_, comm_, env, 0, tuning());
    store.save(name, plan);
    dlbench::test::ExpectError([&] { store.finish(); }, ExitCode::kIo, {"not durable"});
  }
  comm_.barrier();
  EXPECT_FALSE(IsCheckpointComplete(storage::PosixEnv(), capacity));
  {
    // Every rank on n0 now: n1's part is on no node of this run, so the drain is not resumed.
    EmulatedNode all_on_n0("n0");
    config::Config one_node = config_;
    one_node.storage.tiers[0].path = local("n0");
    BurstBufferStore store(one_node, comm_, storage::PosixEnv(), 0, tuning());
    EXPECT_TRUE(store.resumed().empty());
    store.finish();
  }
  EmulatedNode back(node_);
  EXPECT_FALSE(IsCheckpointComplete(storage::PosixEnv(), capacity));
  {
    BurstBufferStore store(config_, comm_, recording, 0, tuning());
    EXPECT_EQ(store.resumed(), std::vector<std::string>{name});
    EXPECT_EQ(store.finish().size(), 1u);
  }
  expect_only_own_node(recording);
  comm_.barrier();
  ASSERT_TRUE(IsCheckpointComplete(storage::PosixEnv(), capacity));
  for (Rank r = 0; r < plan.world(); ++r) {
    for (const PlannedFile& f : plan.for_rank(r).files) {
      EXPECT_EQ(fs::file_size(fs::path(capacity) / f.name), f.bytes) << f.name;
    }
  }
  // A new store finds nothing left to drain.
  BurstBufferStore again(config_, comm_, recording, 0, tuning());
  EXPECT_TRUE(again.resumed().empty());
  again.finish();
}

TEST_P(NodeLocalBurstBuffer, EmulatedNodesSharingOneFolderAreRefused) {
  if (skipped()) GTEST_SKIP() << GetParam() << " nodes need as many ranks";
  config_.storage.tiers[0].path = (dir_ / "local").string();  // no {node}
  dlbench::test::ExpectError(
      [&] { BurstBufferStore store(config_, comm_, storage::PosixEnv(), 0, tuning()); },
      ExitCode::kUsage, {"put {node} in its path"});
}

INSTANTIATE_TEST_SUITE_P(Nodes, NodeLocalBurstBuffer, ::testing::Values(2, 3),
                         [](const auto& p) { return std::to_string(p.param) + "nodes"; });

TEST(NodeMapMpi, DlbenchNodeOnSomeRanksOnlyIsAUsageError) {
  const mpi::Communicator comm = dlbench::test::World();
  if (comm.rank() == 1) setenv(mpi::kNodeVariable, "n1", 1);
  dlbench::test::ExpectError([&] { mpi::NodeMap::Of(comm); }, ExitCode::kUsage,
                             {"set on rank 1 but not on rank 0"});
  unsetenv(mpi::kNodeVariable);
}

TEST(NodeMapMpi, ANodeNameThatCannotNameAFolderIsAUsageError) {
  for (const char* bad : {"a/b", "..", "."}) {
    EmulatedNode node(bad);
    dlbench::test::ExpectError([] { mpi::NodeName(); }, ExitCode::kUsage,
                               {std::string("DLBENCH_NODE='") + bad + "'", "cannot name a folder"});
  }
  EmulatedNode node("n7");
  EXPECT_EQ(mpi::NodeName(), "n7");
}

TEST(NodeMapMpi, WithoutEmulationTheRanksOfOneMachineShareANode) {
  const mpi::Communicator comm = dlbench::test::World();
  const mpi::NodeMap nodes = mpi::NodeMap::Of(comm);
  EXPECT_FALSE(nodes.emulated());
  EXPECT_EQ(nodes.node_count(), 1);
  EXPECT_EQ(nodes.leader(0), 0);
  EXPECT_EQ(nodes.ranks_of(0).size(), static_cast<std::size_t>(comm.size()));
}

}  // namespace
}  // namespace dlbench::checkpoint
