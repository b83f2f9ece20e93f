#include "workflow/run_storage.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "support/expect_error.h"
#include "support/limited_env.h"
#include "support/staging_config.h"
#include "support/test_support.h"
#include "util/error.h"

namespace dlbench::workflow {
namespace {

namespace fs = std::filesystem;

config::TierConfig Tier(const std::string& name, const std::string& path) {
  config::TierConfig tier;
  tier.name = name;
  tier.path = path;
  return tier;
}

// The run's storage with an object store mounted on <dir>/obj: what its capabilities refuse is
// checked on a folder the POSIX Env still holds.
class RunStorageCheck : public ::testing::Test {
 protected:
  RunStorageCheck() : store_(storage::PosixEnv(), storage::Capabilities::ObjectStore("S3")) {
    table_.mount_folder((dir_ / "obj").string(), store_);
    config_.dataset.data_folder = (dir_ / "obj/data").string();
    config_.dataset.format = config::Format::kNpz;
    config_.dataset.num_files_train = 4;
    config_.checkpoint.checkpoint_folder = (dir_ / "ckpt").string();
  }

  // The message of the refusal, "" when the check passes.
  std::string refusal(const FolderUse& use, int ranks = 1) {
    try {
      CheckRunStorage(config_, use, ranks, table_);
    } catch (const Error& error) {
      EXPECT_EQ(error.code(), ExitCode::kUsage) << error.what();
      return error.what();
    }
    return "";
  }

  test::TempDir dir_;
  test::LimitedEnv store_;
  storage::MountTable table_{storage::PosixEnv()};
  config::Config config_;
};

TEST_F(RunStorageCheck, AUriNoBackendHandlesIsRefusedNamingKeyValueAndWhatIsHandled) {
  config_.dataset.data_folder = "s3://bucket/data";
  EXPECT_EQ(refusal({}),
            "dataset.data_folder: 's3://bucket/data' is a s3:// URI, and no storage backend "
            "handles it (this run handles local paths only); give a local folder");
  config_.dataset.data_folder = (dir_ / "data").string();
  config_.storage.tiers.push_back(Tier("fast", "gs://b/fast"));
  EXPECT_NE(refusal({}).find("storage.tiers.fast.path: 'gs://b/fast' is a gs:// URI"),
            std::string::npos);
}

TEST_F(RunStorageCheck, ReadSettingsNeedTheirCapabilityWhereTheDataIs) {
  EXPECT_EQ(refusal({.reads = true}), "");
  config_.reader.odirect = true;
  EXPECT_EQ(refusal({.reads = true}),
            "reader.odirect: true needs O_DIRECT reads, which the S3 storage of "
            "dataset.data_folder '" +
                config_.dataset.data_folder + "' cannot do; set reader.odirect: false");
  EXPECT_EQ(refusal({.generates = true}), "");  // not read: not needed
  config_.reader.odirect = false;
  config_.dataset.format = config::Format::kMmapIndexedBinary;
  EXPECT_NE(refusal({.reads = true})
                .find("dataset.format: mmap_indexed_binary needs "
                      "memory-mapped files, which the S3 storage"),
            std::string::npos);
  config_.dataset.format = config::Format::kNpz;
  config_.reader.drop_caches = config::DropCaches::kFadvise;
  EXPECT_NE(refusal({.reads = true}).find("reader.drop_caches: fadvise needs a page cache"),
            std::string::npos);
  // The same settings on POSIX storage pass.
  config_.dataset.data_folder = (dir_ / "data").string();
  config_.reader.odirect = true;
  config_.dataset.format = config::Format::kMmapIndexedBinary;
  EXPECT_EQ(refusal({.reads = true}), "");
}

TEST_F(RunStorageCheck, SharedFilesNeedSeveralWritersOfOneFile) {
  config_.dataset.format = config::Format::kNpy;  // written as shared files below one per rank
  config_.dataset.num_files_train = 1;
  EXPECT_EQ(refusal({.generates = true}, 1), "");  // one rank: a file per rank
  EXPECT_NE(refusal({.generates = true}, 2)
                .find("dataset.format: npy with 1 file(s) for 2 ranks needs one file written by "
                      "several ranks (MPI-IO), which the S3 storage of dataset.data_folder"),
            std::string::npos);
  config_.dataset.format = config::Format::kNpz;  // never written as a shared file
  EXPECT_EQ(refusal({.generates = true}, 2), "");
}

TEST_F(RunStorageCheck, CheckpointODirectNeedsItInTheCheckpointFolderAndTheBurstBuffer) {
  config_.checkpoint.odirect = true;
  EXPECT_EQ(refusal({.checkpoints = true}), "");
  config_.storage.tiers.push_back(Tier("bb", (dir_ / "obj/bb").string()));
  config_.checkpoint.burst_buffer = config::BurstBufferConfig{.tier = "bb"};
  EXPECT_NE(refusal({.checkpoints = true})
                .find("checkpoint.odirect: true needs O_DIRECT writes, which the S3 storage of "
                      "storage.tiers.bb.path"),
            std::string::npos);
}

TEST(MakeRunStorage, MountsTheBackendsRegisteredForTheSchemesTheConfigurationUses) {
  std::vector<std::string> given;
  RegisterSchemeBackend("testmem", [&given](const config::Config& config,
                                            const std::vector<std::string>& folders, int rank) {
    given = folders;
    EXPECT_EQ(rank, test::World().rank());
    // A backend's own check before any work (S3: the credentials and the bucket).
    if (config.storage.storage_options.contains("refuse")) {
      throw UsageError("testmem: bucket 'b' does not exist");
    }
    return std::make_unique<test::LimitedEnv>(storage::PosixEnv(),
                                              storage::Capabilities::ObjectStore("testmem"));
  });
  test::ExpectError([&] { RegisterSchemeBackend("testmem", nullptr); }, ExitCode::kInternal,
                    {"testmem:// registered twice"});
  test::TempDir dir;
  config::Config config;
  config.dataset.data_folder = (dir / "data").string();
  config.checkpoint.checkpoint_folder = (dir / "ckpt").string();
  // No folder of its scheme: the backend is not made.
  EXPECT_FALSE(MakeRunStorage(config, {}, test::World())->handles("testmem://b/k"));
  EXPECT_TRUE(given.empty());
  config.checkpoint.checkpoint_folder = "testmem://b/ckpt";
  const std::unique_ptr<storage::TierEnv> storage = MakeRunStorage(config, {}, test::World());
  EXPECT_EQ(given, std::vector<std::string>{"testmem://b/ckpt"});
  EXPECT_TRUE(storage->handles("testmem://b/k"));
  EXPECT_EQ(storage->capabilities("testmem://b/k").backend, "testmem");
  EXPECT_EQ(storage->capabilities(config.dataset.data_folder).backend, "POSIX");
  // The backend's refusal is an agreed error of every rank.
  config.storage.storage_options["refuse"] = "yes";
  test::ExpectCollectiveError([&] { MakeRunStorage(config, {}, test::World()); }, ExitCode::kUsage,
                              {"testmem: bucket 'b' does not exist"});
  config.storage.storage_options.clear();
  config.dataset.data_folder = "gs://b/data";
  test::ExpectCollectiveError([&] { MakeRunStorage(config, {}, test::World()); }, ExitCode::kUsage,
                              {"dataset.data_folder: 'gs://b/data' is a gs:// URI, and no storage "
                               "backend handles it"});
}

}  // namespace
}  // namespace dlbench::workflow
