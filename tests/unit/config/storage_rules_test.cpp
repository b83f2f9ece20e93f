// The rules on storage tiers, the burst buffer, staging and the folders dlbench writes into
// (config/storage_rules.cpp), and which of them apply when a command runs one phase whatever the
// workflow says (LoadOptions::forced): a document that breaks a rule, and its message with the
// key's file:line or override. UsageMessage also checks the exit code (kUsage, 2).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <optional>

#include "config_test_util.h"
#include "support/test_support.h"

namespace dlbench::config {
namespace {

using testing::LoadText;
using testing::RuleCase;
using testing::UsageMessage;

// Two tiers and a dataset on the first; line 3 is free for the case's own keys.
#define STAGE_TIERS                                                              \
  "storage: {tiers: {pfs: {path: /scratch/pfs}, nvme: {path: /scratch/nvme}}}\n" \
  "dataset: {data_folder: /scratch/pfs/data}\n"

const RuleCase kRules[] = {
    // storage
    {"S3WithoutABucketForALocalDataFolder",
     "storage: {storage_type: s3}\n",
     {},
     1,
     "dataset.data_folder: './data' is not an s3:// URI, and storage.storage_type is s3; give "
     "s3://bucket/prefix, or the bucket as storage.storage_root"},
    {"AIStore",
     "storage: {storage_type: aistore}\n",
     {},
     1,
     "storage.storage_type: aistore is not supported by dlbench, which stores on POSIX file "
     "systems and S3"},
    {"UnknownS3Library",
     "storage: {storage_library: boto4}\n",
     {},
     1,
     "storage.storage_library: 'boto4' is not one of s3dlio, s3torchconnector, minio"},
    {"UnknownS3LibraryAsAStorageOption",
     "storage: {storage_options: {storage_library: boto3}}\n",
     {},
     1,
     "storage.storage_options.storage_library: 'boto3' is not one of s3dlio, s3torchconnector, "
     "minio"},
    {"TierWithoutBandwidth",
     "storage: {tiers: {a: {path: /a, bandwidth_limit: 0MiB/s}}}\n",
     {},
     1,
     "storage.tiers.a.bandwidth_limit: must be a finite number > 0"},
    {"TierWithoutCapacity",
     "storage: {tiers: {a: {path: /a, capacity: 0}}}\n",
     {},
     1,
     "storage.tiers.a.capacity: must be > 0"},
    {"TierWithEmptyPath",
     "storage: {tiers: {a: {path: ''}}}\n",
     {},
     1,
     "storage.tiers.a.path: must not be empty"},
    // burst buffer
    {"BurstBufferOnAnUnknownTier",
     "storage: {tiers: {nvme: {path: /nvme}}}\ncheckpoint: {burst_buffer: {tier: ssd}}\n",
     {},
     1,
     "checkpoint.burst_buffer: tier 'ssd' is not a storage.tiers entry (defined: nvme) "
     "(w.yaml:2)"},
    {"BurstBufferWithoutTiers",
     "checkpoint: {burst_buffer: {tier: ssd}}\n",
     {},
     1,
     "tier 'ssd' is not a storage.tiers entry (storage.tiers is empty)"},
    {"BurstBufferWithoutDrainThreads",
     "storage: {tiers: {nvme: {path: /nvme}}}\n"
     "checkpoint: {burst_buffer: {tier: nvme, drain_threads: 0}}\n",
     {},
     1,
     "checkpoint.burst_buffer.drain_threads: must be >= 1, got 0"},
    {"BurstBufferWithoutPending",
     "storage: {tiers: {nvme: {path: /nvme}}}\n"
     "checkpoint: {burst_buffer: {tier: nvme, max_pending_checkpoints: 0}}\n",
     {},
     1,
     "checkpoint.burst_buffer.max_pending_checkpoints: must be >= 1, got 0"},
    {"BurstBufferHoldsTheCheckpointFolder",
     "storage: {tiers: {nvme: {path: /scratch/nvme}}}\n"
     "checkpoint: {burst_buffer: {tier: nvme}, checkpoint_folder: /scratch/nvme/ckpt/}\n",
     {},
     1,
     "checkpoint.burst_buffer.tier = nvme (w.yaml:2) (path '/scratch/nvme') and "
     "checkpoint.checkpoint_folder = '/scratch/nvme/ckpt' (w.yaml:2) overlap; the burst buffer "
     "must be a different folder"},
    {"BurstBufferInsideTheCheckpointFolder",
     "storage: {tiers: {nvme: {path: ckpt/../ckpt/bb}}}\n"
     "checkpoint: {burst_buffer: {tier: nvme}, checkpoint_folder: ckpt}\n",
     {},
     1,
     "overlap; the burst buffer must be a different folder"},
    {"BurstBufferTierIsASystemFolder",
     "storage: {tiers: {nvme: {path: /usr/}}}\ncheckpoint: {burst_buffer: {tier: nvme}}\n",
     {},
     1,
     "storage.tiers.nvme.path: '/usr/' is a system folder; give a dedicated folder (w.yaml:1)"},
    {"TwoTiersOnOneFolder",
     "storage: {tiers: {a: {path: /scratch/t}, b: {path: /scratch/x/../t/}}}\n",
     {},
     1,
     "storage.tiers.b.path: '/scratch/x/../t/' is also the folder of tier a; give each tier its "
     "own folder (w.yaml:1)"},
    // folders
    {"DataFolderIsRoot",
     "dataset: {data_folder: /}\n",
     {},
     1,
     "dataset.data_folder: '/' is a system folder; give a dedicated folder (w.yaml:1)"},
    {"DataFolderIsASystemFolder",
     "dataset: {data_folder: /usr/lib/..}\n",
     {},
     1,
     "dataset.data_folder: '/usr/lib/..' is a system folder"},
    {"CheckpointsInsideTheData",
     "dataset: {data_folder: run/data}\nworkflow: {checkpoint: true}\n",
     {"++checkpoint.checkpoint_folder=run/data/ckpt"},
     1,
     "dataset.data_folder = 'run/data' (w.yaml:1) and checkpoint.checkpoint_folder = "
     "'run/data/ckpt' (override ++checkpoint.checkpoint_folder=run/data/ckpt) overlap"},
    {"OutputIsTheData",
     "output: {folder: ./data/}\n",
     {},
     1,
     "dataset.data_folder = './data' (the default) and output.folder = './data/' (w.yaml:1) "
     "overlap"},
    // staging: checked when it runs (workflow.stage, or `dlbench stage`)
    {"StageThreadsBelowOne",
     "stage: {threads: 0}\n",
     {},
     1,
     "stage.threads: must be >= 1, got 0 (w.yaml:1)"},
    {"StageThreadsBelowOneAsAnOverride",
     "{}",
     {"++stage.threads=-1"},
     1,
     "stage.threads: must be >= 1, got -1 (override ++stage.threads=-1)"},
    {"StageToAnUnknownTier",
     STAGE_TIERS "workflow: {stage: true}\nstage: {to: ssd}\n",
     {},
     1,
     "stage.to: 'ssd' is not a storage.tiers entry (defined: "},
    {"StageToAnUnknownTierSaysWhere",
     STAGE_TIERS "workflow: {stage: true}\nstage: {to: ssd}\n",
     {},
     1,
     "name the tier to stage the dataset to (w.yaml:4)"},
    {"StageToUnset",
     STAGE_TIERS "workflow: {stage: true}\n",
     {},
     1,
     "stage.to: is not set (defined: "},
    {"StageToUnsetForcedByTheStageCommand",
     STAGE_TIERS,
     {},
     1,
     "stage.to: is not set (defined: ",
     Phase::kStage},
    {"StageToWithoutTiers",
     "workflow: {stage: true}\nstage: {to: nvme}\n",
     {},
     1,
     "stage.to: 'nvme' is not a storage.tiers entry (storage.tiers is empty)"},
    {"StageFromAnUnknownTier",
     STAGE_TIERS "stage: {to: nvme}\n",
     {"++stage.from=ssd"},
     1,
     "stage.from: 'ssd' is not a storage.tiers entry (defined: ",
     Phase::kStage},
    {"StageFromAnUnknownTierSaysWhere",
     STAGE_TIERS "stage: {to: nvme}\n",
     {"++stage.from=ssd"},
     1,
     "(override ++stage.from=ssd)",
     Phase::kStage},
    {"DataFolderUnderNoTier",
     STAGE_TIERS "stage: {to: nvme}\n",
     {"++dataset.data_folder=/scratch/elsewhere/data"},
     1,
     "dataset.data_folder = '/scratch/elsewhere/data' (override "
     "++dataset.data_folder=/scratch/elsewhere/data) is under no storage tier; put it under one "
     "or set stage.from",
     Phase::kStage},
    {"DataFolderNotUnderStageFrom",
     STAGE_TIERS "stage: {to: pfs, from: nvme}\n",
     {},
     1,
     "dataset.data_folder = '/scratch/pfs/data' (w.yaml:2) is not under tier nvme (w.yaml:3) "
     "(path '/scratch/nvme')",
     Phase::kStage},
    {"DatasetAlreadyOnTheToTier",
     STAGE_TIERS "workflow: {stage: true}\nstage: {to: pfs}\n",
     {},
     1,
     "is already on stage.to = 'pfs' (w.yaml:4); stage.to must be another tier"},
    {"StagingWhileTrainingIsCheckedByTheTrainCommand",
     STAGE_TIERS "workflow: {stage: true}\nstage: {to: ssd, policy: per_epoch}\n",
     {},
     1,
     "stage.to: 'ssd' is not a storage.tiers entry",
     Phase::kTrain},
    // Every run of a workload that stages resolves the staged folder before its first phase.
    {"AWorkloadThatStagesIsCheckedByEveryCommand",
     STAGE_TIERS "workflow: {stage: true}\nstage: {to: ssd}\n",
     {},
     1,
     "stage.to: 'ssd' is not a storage.tiers entry",
     Phase::kGenerate},
    // the phases a command forces are held to their rules, whatever the workflow says
    {"TheTrainCommandNeedsTrainingFiles",
     "workflow: {train: false, checkpoint: true}\ndataset: {num_files_train: 0}\n",
     {},
     1,
     "dataset.num_files_train: must be >= 1 when training or generating data, got 0 (w.yaml:2)",
     Phase::kTrain},
    {"TheGenerateCommandNeedsFilesToGenerate",
     "workflow: {train: false, checkpoint: true}\n",
     {"++dataset.num_files_train=0"},
     1,
     "dataset.num_files_train: must be >= 1 when training or generating data, got 0 (override "
     "++dataset.num_files_train=0)",
     Phase::kGenerate},
    {"TheTrainCommandNeedsATrainingStep",
     "workflow: {train: false, checkpoint: true}\n"
     "dataset: {num_files_train: 2, num_samples_per_file: 1}\nreader: {batch_size: 4}\n",
     {},
     1,
     "no training step per epoch",
     Phase::kTrain},
};

class StorageRule : public ::testing::TestWithParam<RuleCase> {};

TEST_P(StorageRule, IsRejectedWithItsMessage) { testing::ExpectRejected(GetParam()); }

INSTANTIATE_TEST_SUITE_P(Rules, StorageRule, ::testing::ValuesIn(kRules),
                         [](const auto& rule_info) { return std::string(rule_info.param.name); });

TEST(StorageRules, HomeDirectoryIsRefused) {
  const char* home = std::getenv("HOME");
  if (home == nullptr || *home == '\0') GTEST_SKIP() << "no HOME";
  const std::string message = UsageMessage(
      [&] { LoadText("{}", {std::string("++checkpoint.checkpoint_folder=") + home}); });
  EXPECT_NE(message.find("checkpoint.checkpoint_folder: '" + std::string(home) +
                         "' is the home folder; give a dedicated folder"),
            std::string::npos)
      << message;
}

// The folder rules follow symbolic links: what counts is where the files go.
TEST(StorageRules, ASymbolicLinkToTheRootIsRefused) {
  const dlbench::test::TempDir dir;
  std::filesystem::create_directory_symlink("/", dir / "root");
  const std::string link = (dir / "root").string();
  EXPECT_NE(UsageMessage([&] {
              LoadText("{}", {"++dataset.data_folder=" + link});
            }).find("dataset.data_folder: '" + link + "' resolves to /, a system folder"),
            std::string::npos);
  // Also a path through a link that reaches a system folder only after "..".
  std::filesystem::create_directory(dir / "sub");
  std::filesystem::create_directory_symlink("/usr/lib", dir / "sub" / "lib");
  const std::string through = (dir / "sub" / "lib" / "..").string();
  EXPECT_NE(UsageMessage([&] {
              LoadText("{}", {"++checkpoint.checkpoint_folder=" + through});
            }).find("resolves to /usr, a system folder"),
            std::string::npos);
}

TEST(StorageRules, ASymbolicLinkPointingOutOfTheDataFolderIntoAnotherIsAnOverlap) {
  const dlbench::test::TempDir dir;
  std::filesystem::create_directories(dir / "data");
  std::filesystem::create_directory_symlink(dir / "data", dir / "ckpt");
  const std::string message = UsageMessage([&] {
    LoadText("{}", {"++dataset.data_folder=" + (dir / "data").string(),
                    "++checkpoint.checkpoint_folder=" + (dir / "ckpt" / "c").string(),
                    "++workflow.checkpoint=True"});
  });
  EXPECT_NE(message.find("overlap; give them separate folders"), std::string::npos) << message;
}

// DLIO's S3 workloads keep the dataset at the bucket's root and the default checkpoint folder in
// the same bucket, with checkpointing off: the checkpoint folder is then not one dlbench uses.
TEST(StorageRules, TheCheckpointFolderMayBeInsideTheDataWhenNoCheckpointIsWrittenOrRead) {
  EXPECT_NO_THROW(LoadText("{}", {"++dataset.data_folder=run/data",
                                  "++checkpoint.checkpoint_folder=run/data/checkpoints/unet3d"}));
  EXPECT_NE(UsageMessage([&] {
              LoadText("{}", {"++dataset.data_folder=run/data",
                              "++checkpoint.checkpoint_folder=run/data/checkpoints/unet3d",
                              "++workflow.train=False", "++workflow.checkpoint=True"});
            }).find("overlap"),
            std::string::npos);
}

TEST(StorageRules, ASymbolicLinkToADedicatedFolderIsFine) {
  const dlbench::test::TempDir dir;
  std::filesystem::create_directories(dir / "elsewhere" / "data");
  std::filesystem::create_directory_symlink(dir / "elsewhere", dir / "link");
  EXPECT_NO_THROW(LoadText("{}", {"++dataset.data_folder=" + (dir / "link" / "data").string(),
                                  "++checkpoint.checkpoint_folder=" + (dir / "ckpt").string()}));
}

// --output is held to output.folder's rules: `-o DATA_FOLDER` was accepted where
// `output.folder: DATA_FOLDER` was refused for the overlap. The Config keeps the workload's value.
TEST(StorageRules, TheCommandLineOutputFolderIsHeldToTheOutputFolderRules) {
  LoadOptions options;
  options.output_folder = "run/data";
  const std::string message = UsageMessage(
      [&] { LoadYamlText("dataset: {data_folder: run/data}\n", "w.yaml", {}, options); });
  EXPECT_EQ(message,
            "dataset.data_folder = 'run/data' (w.yaml:1) and output.folder = 'run/data' "
            "(--output) overlap; give them separate folders");
  // An unsafe --output keeps the message of the output folder's own check (made when the run
  // prepares the folder, tests/badinput safety_root_output).
  options.output_folder = "/";
  EXPECT_NO_THROW(LoadYamlText("{}", "w.yaml", {}, options));
  options.output_folder = "run/out";
  EXPECT_FALSE(LoadYamlText("dataset: {data_folder: run/data}\n", "w.yaml", {}, options)
                   .config.output.folder.has_value());
}

TEST(StorageRules, ValidCombinationsPass) {
  // Each of these sits next to a rejected case above.
  EXPECT_NO_THROW(LoadText(STAGE_TIERS "workflow: {stage: true}\nstage: {to: nvme}\n"));
  EXPECT_NO_THROW(
      LoadText(STAGE_TIERS "stage: {to: nvme, from: pfs}\n", {}, 1, false, Phase::kStage));
  EXPECT_NO_THROW(
      LoadText(STAGE_TIERS "stage: {to: nvme}\n", {"++stage.threads=1"}, 1, false, Phase::kStage));
  // The data folder may be the from tier's folder itself.
  EXPECT_NO_THROW(LoadText(STAGE_TIERS "workflow: {stage: true}\nstage: {to: nvme}\n",
                           {"++dataset.data_folder=/scratch/pfs/"}));
  // The deepest tier holding the data folder is the one it is staged from.
  EXPECT_NO_THROW(LoadText(
      "storage: {tiers: {pfs: {path: /scratch}, nvme: {path: /scratch/nvme}, deep: {path: "
      "/scratch/pfs}}}\ndataset: {data_folder: /scratch/pfs/data}\nworkflow: {stage: true}\n"
      "stage: {to: nvme}\n"));
}

// DLIO's spelling (a URI) and MLPerf Storage's (a key prefix in the bucket storage_root names).
// MLPerf Storage's wrapper passes the library as a storage option; its fork reads it there too.
TEST(StorageRules, TheS3LibraryIsReadFromEitherSpelling) {
  EXPECT_EQ(
      LoadText("storage: {storage_options: {storage_library: minio}}\n").config.storage.library(),
      "minio");
  EXPECT_EQ(LoadText("storage: {storage_library: s3dlio, storage_options: {storage_library: "
                     "minio}}\n")
                .config.storage.library(),
            "s3dlio");
  EXPECT_EQ(LoadText("{}").config.storage.library(), "");
}

// DLIO passes storage_options on unchecked, so an unknown key is no error; a misspelt one is
// named, with the key it resembles, and never with its value (it may be a secret).
TEST(StorageRules, AStorageOptionTheS3ClientDoesNotReadIsNoticedWithTheClosestKey) {
  const LoadResult typo = LoadText(
      "storage: {storage_type: s3, storage_root: b, storage_options: {endpoint: "
      "'http://x:1', secret_acces_key: hush, access_key_id: AK, s3_max_attempts: 3, op_log: "
      "ops.tsv}}\n");
  std::vector<std::string> about;
  for (const std::string& n : typo.notices) {
    EXPECT_EQ(n.find("hush"), n.npos) << n;
    if (n.find("is not read by dlbench's S3 client") != n.npos) about.push_back(n);
  }
  ASSERT_EQ(about.size(), 2u);
  EXPECT_NE(about[0].find("storage.storage_options.endpoint (w.yaml:1) is not read"),
            std::string::npos)
      << about[0];
  EXPECT_NE(about[0].find("did you mean endpoint_url?"), std::string::npos) << about[0];
  EXPECT_NE(about[1].find("did you mean secret_access_key?"), std::string::npos) << about[1];
  // POSIX storage reads no storage_options: nothing to say.
  for (const std::string& n : LoadText("storage: {storage_options: {endpoint: x}}\n").notices)
    EXPECT_EQ(n.find("storage_options"), n.npos) << n;
}

TEST(StorageRules, S3FoldersAreUrisOrKeyPrefixesInTheBucket) {
  const LoadResult dlio = LoadText(
      "storage: {storage_type: s3, storage_root: ignored}\n"
      "dataset: {data_folder: s3://bucket/unet3d}\n");
  EXPECT_EQ(dlio.config.dataset.data_folder, "s3://bucket/unet3d");
  EXPECT_EQ(dlio.config.checkpoint.checkpoint_folder, "s3://ignored/checkpoints");
  const LoadResult mlperf = LoadText(
      "storage: {storage_type: s3, storage_root: mlp-s3dlio, storage_library: s3dlio}\n"
      "dataset: {data_folder: test-run/unet3d/}\n"
      "checkpoint: {checkpoint_folder: /ckpt}\n");
  EXPECT_EQ(mlperf.config.dataset.data_folder, "s3://mlp-s3dlio/test-run/unet3d");
  EXPECT_EQ(mlperf.config.checkpoint.checkpoint_folder, "s3://mlp-s3dlio/ckpt");
  const std::string notice =
      "dataset.data_folder: 'test-run/unet3d' is a key prefix in the bucket "
      "storage.storage_root names: s3://mlp-s3dlio/test-run/unet3d";
  EXPECT_NE(std::find(mlperf.notices.begin(), mlperf.notices.end(), notice), mlperf.notices.end());
  // A checkpoint-only run reads no data: the data folder's resolution is not noticed.
  const LoadResult checkpoint_only = LoadText(
      "storage: {storage_type: s3, storage_root: b}\n"
      "workflow: {train: false, checkpoint: true}\n");
  EXPECT_EQ(checkpoint_only.config.dataset.data_folder, "s3://b/data");
  for (const std::string& n : checkpoint_only.notices) EXPECT_EQ(n.find("key prefix"), n.npos) << n;
  // A tier may stay local: a burst buffer on local NVMe in front of the bucket.
  EXPECT_NO_THROW(LoadText(
      "storage: {storage_type: s3, storage_root: b, tiers: {nvme: {path: /scratch/nvme}}}\n"));
}

TEST(StorageRules, PhasesThatDoNotRunAreNotHeldToTheirRules) {
  // Staging that nothing runs: stage.to may be anything (but stage.threads is a value rule).
  EXPECT_NO_THROW(LoadText(STAGE_TIERS "stage: {to: ssd}\n"));
  EXPECT_NO_THROW(LoadText(STAGE_TIERS "stage: {to: ssd}\n", {}, 1, false, Phase::kTrain));
  // A checkpoint-only workload has no training files or steps to check, and neither has the
  // checkpoint command of a training workload.
  const std::string few_files =
      "dataset: {num_files_train: 2, num_samples_per_file: 1}\n"
      "reader: {batch_size: 4}\n";
  EXPECT_NO_THROW(LoadText(few_files + "workflow: {train: false, checkpoint: true}\n"));
  EXPECT_NO_THROW(LoadText(few_files, {}, 1, false, Phase::kCheckpoint));
  EXPECT_NE(UsageMessage([&] { LoadText(few_files); }).find("no training step per epoch"),
            std::string::npos);
}

// A bare number is bytes per second or seconds (docs/configuration.md §3): `bandwidth_limit: 400`
// written for MiB/s emulated 400 B/s and `latency: 2` for ms slept 2 s per operation, runs that
// look hung and said nothing. Each gets a notice naming the value, where it was set and the
// spelling with the unit; ordinary values get none.
TEST(StorageRules, ARateOrLatencyThatLooksLikeAMissingUnitGetsANotice) {
  const auto result =
      LoadText("storage: {tiers: {pfs: {path: /scratch/pfs, bandwidth_limit: 400, latency: 2}}}\n");
  ASSERT_EQ(result.notices.size(), 2u);
  EXPECT_EQ(result.notices[0],
            "storage.tiers.pfs.bandwidth_limit: 400B/s (w.yaml:1) is below 1 MiB/s, so slow that "
            "a run looks hung; a bare number is bytes per second: write 400MiB/s for MiB/s");
  EXPECT_EQ(result.notices[1],
            "storage.tiers.pfs.latency: 2s (w.yaml:1) is slept before every operation; a bare "
            "number is seconds: write 2ms for milliseconds");
  EXPECT_TRUE(LoadText("storage: {tiers: {pfs: {path: /p, bandwidth_limit: 1MiB/s, latency: "
                       "999ms}}}\n")
                  .notices.empty());
}

#undef STAGE_TIERS

}  // namespace
}  // namespace dlbench::config
