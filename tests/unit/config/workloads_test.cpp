// Every shipped workload and every test workload loads and validates at the rank counts it is
// meant for, and carries the real numbers of the DLIO / MLPerf Storage files it reproduces
// (docs/workloads.md). A typo in a YAML or a loader change that shifts a default shows up here.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "config/config.h"
#include "config/load.h"
#include "config/workload_catalog.h"
#include "support/test_support.h"
#include "util/error.h"

namespace dlbench::config {
namespace {

namespace fs = std::filesystem;

fs::path ShippedDir() { return test::SourceDir() / "workloads"; }
fs::path TestDataDir() { return test::SourceDir() / "tests" / "data" / "workloads"; }
fs::path AcceleratorsDir() { return test::SourceDir() / "configs" / "accelerators"; }

std::vector<fs::path> YamlFilesIn(const fs::path& folder) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(folder)) {
    if (entry.is_regular_file() && entry.path().extension() == ".yaml") {
      files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::vector<fs::path> AllWorkloadFiles() {
  std::vector<fs::path> files = YamlFilesIn(ShippedDir());
  for (auto& file : YamlFilesIn(TestDataDir())) files.push_back(std::move(file));
  return files;
}

// The rank counts a workload is meant for: MLPerf's CLOSED counts for the checkpoint
// workloads, a multiple of TP x PP for megatron, otherwise one rank and two.
std::vector<int> WorldSizesFor(const std::string& name) {
  if (name == "llama3_8b") return {8};
  if (name == "llama3_70b") return {64};
  if (name == "llama3_405b") return {512};
  if (name == "llama3_1t") return {1024};
  if (name == "megatron_deepspeed") return {32, 64};
  return {1, 2};
}

LoadOptions OptionsFor(int world_size) {
  LoadOptions options;
  options.workloads_dir = ShippedDir().string();
  options.world_size = world_size;
  return options;
}

Config LoadShipped(const std::string& name, int world_size = 1,
                   const std::vector<std::string>& overrides = {}) {
  return Load(name, overrides, OptionsFor(world_size)).config;
}

// DLIO's steps per epoch with dlbench's sharding: floor(floor(N / P) / batch).
std::int64_t StepsPerEpoch(std::int64_t samples, int world_size, std::int64_t batch) {
  return samples / world_size / batch;
}

class EveryWorkloadTest : public ::testing::TestWithParam<fs::path> {};

TEST_P(EveryWorkloadTest, LoadsAndValidatesAtItsRankCounts) {
  const fs::path& file = GetParam();
  for (const int world_size : WorldSizesFor(file.stem().string())) {
    SCOPED_TRACE("world_size " + std::to_string(world_size));
    LoadResult result;
    ASSERT_NO_THROW(result = Load(file.string(), {}, OptionsFor(world_size)));
    const Config& config = result.config;
    EXPECT_FALSE(config.model.name.empty());
    // Every workload does something, and training ones have at least one step per rank.
    EXPECT_TRUE(config.workflow.train || config.workflow.checkpoint ||
                config.workflow.generate_data);
    if (config.workflow.train) {
      const std::int64_t samples =
          config.dataset.num_files_train * config.dataset.num_samples_per_file;
      EXPECT_GE(StepsPerEpoch(samples, world_size, config.reader.batch_size), 1);
    }
  }
}

// The resolved config.yaml a run writes must load back to the same configuration.
TEST_P(EveryWorkloadTest, ResolvedYamlLoadsBackUnchanged) {
  const fs::path& file = GetParam();
  const int world_size = WorldSizesFor(file.stem().string()).front();
  const Config config = Load(file.string(), {}, OptionsFor(world_size)).config;
  const std::string resolved = ToYaml(config);
  const test::TempDir dir;
  const fs::path copy = dir.write("resolved.yaml", resolved);
  std::string again;
  ASSERT_NO_THROW(again = ToYaml(Load(copy.string(), {}, OptionsFor(world_size)).config))
      << resolved;
  EXPECT_EQ(again, resolved);
}

TEST_P(EveryWorkloadTest, StartsWithAOneLineDescription) {
  const fs::path& file = GetParam();
  const WorkloadCatalog catalog({file.parent_path().string()}, "");
  const auto entries = catalog.list();
  const auto entry = std::find_if(entries.begin(), entries.end(), [&](const WorkloadEntry& e) {
    return e.name == file.stem().string();
  });
  ASSERT_NE(entry, entries.end());
  EXPECT_GE(entry->description.size(), 20u) << entry->description;
}

std::string TestNameOf(const ::testing::TestParamInfo<fs::path>& info) {
  const std::string stem = info.param.stem().string();
  return info.param.parent_path() == TestDataDir() ? "test_" + stem : stem;
}

INSTANTIATE_TEST_SUITE_P(Workloads, EveryWorkloadTest, ::testing::ValuesIn(AllWorkloadFiles()),
                         TestNameOf);

TEST(ShippedWorkloadsTest, AreExactlyTheReferenceWorkloads) {
  const std::set<std::string> expected = {"default",        "unet3d_a100",        "unet3d_h100",
                                          "unet3d_b200",    "resnet50_a100",      "resnet50_h100",
                                          "cosmoflow_a100", "cosmoflow_h100",     "bert_v100",
                                          "dlrm",           "megatron_deepspeed", "llama3_8b",
                                          "llama3_70b",     "llama3_405b",        "llama3_1t",
                                          "retinanet_b200", "flux_b200"};
  std::set<std::string> listed;
  for (const auto& entry : WorkloadCatalog({}, ShippedDir().string()).list()) {
    listed.insert(entry.name);
  }
  EXPECT_EQ(listed, expected);
}

// Shipped files are the reference spelling: no legacy alias (each would print a notice on
// every run). Their only notices are for DLIO keys kept on purpose that have no effect.
TEST(ShippedWorkloadsTest, UseCanonicalKeysOnly) {
  for (const auto& file : YamlFilesIn(ShippedDir())) {
    SCOPED_TRACE(file.string());
    const int world_size = WorldSizesFor(file.stem().string()).front();
    const LoadResult result = Load(file.string(), {}, OptionsFor(world_size));
    for (const auto& notice : result.notices) {
      EXPECT_EQ(notice.find("read as"), std::string::npos) << notice;
    }
  }
}

TEST(ShippedWorkloadsTest, DefaultFinishesInSecondsOnTwoRanks) {
  const Config config = LoadShipped("default", 2);
  EXPECT_TRUE(config.workflow.generate_data);
  EXPECT_TRUE(config.workflow.train);
  EXPECT_TRUE(config.workflow.evaluation);
  // DLIO's dataset shape is kept.
  EXPECT_EQ(config.framework, Framework::kPytorch);
  EXPECT_EQ(config.dataset.format, Format::kNpz);
  EXPECT_EQ(config.dataset.num_files_train, 64);
  EXPECT_EQ(config.dataset.num_files_eval, 8);
  EXPECT_EQ(config.dataset.num_subfolders_train, 2);
  EXPECT_EQ(config.dataset.num_subfolders_eval, 2);
  EXPECT_DOUBLE_EQ(config.dataset.record_length_bytes, 4096);
  EXPECT_EQ(config.reader.batch_size, 4);
  EXPECT_EQ(config.dataset.data_folder, "data/default");

  const std::int64_t train_steps = StepsPerEpoch(64, 2, config.reader.batch_size);
  const std::int64_t eval_steps = StepsPerEpoch(8, 2, config.reader.batch_size_eval);
  EXPECT_EQ(train_steps, 8);
  EXPECT_EQ(eval_steps, 4);
  const double emulated_seconds =
      config.train.epochs *
      (static_cast<double>(train_steps) * config.train.computation_time.expected() +
       static_cast<double>(eval_steps) * config.evaluation.eval_time.expected());
  EXPECT_LT(emulated_seconds, 1.0);
  EXPECT_GT(emulated_seconds, 0.0);
}

TEST(ShippedWorkloadsTest, Unet3dH100HasMlperfNumbers) {
  const Config config = LoadShipped("unet3d_h100", 2);
  EXPECT_EQ(config.model.name, "unet3d");
  EXPECT_EQ(config.framework, Framework::kPytorch);
  EXPECT_EQ(config.reader.data_loader, DataLoader::kPytorch);
  EXPECT_EQ(config.dataset.format, Format::kNpz);
  EXPECT_EQ(config.dataset.num_files_train, 168);
  EXPECT_EQ(config.dataset.num_samples_per_file, 1);
  EXPECT_DOUBLE_EQ(config.dataset.record_length_bytes, 146600628);
  EXPECT_DOUBLE_EQ(config.dataset.record_length_bytes_stdev, 68341808);
  EXPECT_EQ(config.dataset.record_length_bytes_resize, 2097152);
  EXPECT_EQ(config.reader.batch_size, 7);
  EXPECT_EQ(config.reader.read_threads, 4);
  EXPECT_EQ(config.reader.file_shuffle, Shuffle::kSeed);
  EXPECT_EQ(config.reader.sample_shuffle, Shuffle::kSeed);
  EXPECT_EQ(config.train.epochs, 5);
  EXPECT_EQ(config.train.computation_time.kind, TimeDistribution::Kind::kConstant);
  EXPECT_DOUBLE_EQ(config.train.computation_time.mean, 0.323);
  EXPECT_TRUE(config.workflow.checkpoint);
  EXPECT_EQ(config.checkpoint.checkpoint_after_epoch, 5);
  EXPECT_EQ(config.checkpoint.epochs_between_checkpoints, 2);
  EXPECT_EQ(config.model.model_size_bytes, 499153191);
  EXPECT_FALSE(config.model.is_transformer());
  EXPECT_DOUBLE_EQ(config.metric.au, 0.90);
}

TEST(ShippedWorkloadsTest, Unet3dOtherAcceleratorsDifferOnlyInComputeAndFiles) {
  const Config a100 = LoadShipped("unet3d_a100");
  EXPECT_DOUBLE_EQ(a100.train.computation_time.mean, 0.636);
  EXPECT_EQ(a100.dataset.num_files_train, 168);
  EXPECT_TRUE(a100.workflow.checkpoint);

  const Config b200 = LoadShipped("unet3d_b200");
  EXPECT_DOUBLE_EQ(b200.train.computation_time.mean, 0.162);
  EXPECT_EQ(b200.dataset.num_files_train, 7200);
  EXPECT_EQ(b200.reader.batch_size, 7);
  EXPECT_FALSE(b200.workflow.checkpoint);
  EXPECT_DOUBLE_EQ(b200.dataset.record_length_bytes_stdev, 68341808);
}

TEST(ShippedWorkloadsTest, Resnet50KeepsTheFractionalRecordLength) {
  for (const auto& [name, compute] : std::vector<std::pair<std::string, double>>{
           {"resnet50_a100", 0.435}, {"resnet50_h100", 0.224}}) {
    SCOPED_TRACE(name);
    const Config config = LoadShipped(name, 2);
    EXPECT_EQ(config.framework, Framework::kTensorflow);
    EXPECT_EQ(config.reader.data_loader, DataLoader::kTensorflow);
    EXPECT_EQ(config.dataset.format, Format::kTfrecord);
    EXPECT_EQ(config.dataset.num_files_train, 1024);
    EXPECT_EQ(config.dataset.num_samples_per_file, 1251);
    EXPECT_DOUBLE_EQ(config.dataset.record_length_bytes, 114660.07);
    EXPECT_EQ(config.dataset.record_length_bytes_resize, 150528);
    EXPECT_EQ(config.reader.batch_size, 400);
    EXPECT_EQ(config.reader.read_threads, 8);
    EXPECT_EQ(config.reader.computation_threads, 8);
    EXPECT_EQ(config.reader.file_shuffle, Shuffle::kOff);
    EXPECT_DOUBLE_EQ(config.train.computation_time.mean, compute);
    EXPECT_EQ(config.train.epochs, 5);
  }
}

TEST(ShippedWorkloadsTest, CosmoflowHasSeventyPercentAu) {
  for (const auto& [name, compute] : std::vector<std::pair<std::string, double>>{
           {"cosmoflow_a100", 0.00551}, {"cosmoflow_h100", 0.00350}}) {
    SCOPED_TRACE(name);
    const Config config = LoadShipped(name);
    EXPECT_EQ(config.dataset.num_files_train, 524288);
    EXPECT_DOUBLE_EQ(config.dataset.record_length_bytes, 2828486);
    EXPECT_DOUBLE_EQ(config.dataset.record_length_bytes_stdev, 71311);
    EXPECT_EQ(config.reader.batch_size, 1);
    EXPECT_EQ(config.reader.read_threads, 4);
    EXPECT_EQ(config.reader.shuffle_size, 2);
    EXPECT_EQ(config.reader.sample_shuffle, Shuffle::kSeed);
    EXPECT_DOUBLE_EQ(config.train.computation_time.mean, compute);
    EXPECT_DOUBLE_EQ(config.metric.au, 0.70);
  }
}

TEST(ShippedWorkloadsTest, BertCheckpointsEvery250StepsOfAtMost1000) {
  const Config config = LoadShipped("bert_v100");
  EXPECT_EQ(config.dataset.num_files_train, 500);
  EXPECT_EQ(config.dataset.num_samples_per_file, 313532);
  EXPECT_DOUBLE_EQ(config.dataset.record_length_bytes, 2500);
  EXPECT_EQ(config.dataset.file_prefix, "part");
  EXPECT_EQ(config.reader.batch_size, 48);
  ASSERT_TRUE(config.reader.transfer_size.has_value());
  EXPECT_EQ(*config.reader.transfer_size, 262144u);
  EXPECT_DOUBLE_EQ(config.train.computation_time.mean, 0.968);
  EXPECT_EQ(config.train.epochs, 1);
  EXPECT_EQ(config.train.total_training_steps, 1000);
  EXPECT_FALSE(config.train.seed_change_epoch);
  EXPECT_EQ(config.checkpoint.steps_between_checkpoints, 250);
  EXPECT_EQ(config.model.model_size_bytes, 4034713312);
}

TEST(ShippedWorkloadsTest, DlrmIsOneSharedFile) {
  const Config config = LoadShipped("dlrm", 2);
  EXPECT_EQ(config.dataset.format, Format::kIndexedBinary);
  EXPECT_EQ(config.dataset.num_files_train, 1);
  EXPECT_EQ(config.dataset.num_files_eval, 1);
  EXPECT_EQ(config.dataset.num_samples_per_file, 1024);
  EXPECT_DOUBLE_EQ(config.dataset.record_length_bytes, 671088640);
  EXPECT_EQ(config.reader.batch_size, 1);
  EXPECT_EQ(config.reader.sample_shuffle, Shuffle::kRandom);
  EXPECT_DOUBLE_EQ(config.train.computation_time.mean, 0.064296);
}

TEST(ShippedWorkloadsTest, MegatronUsesTheLegacyCheckpointModel) {
  const Config config = LoadShipped("megatron_deepspeed", 32);
  EXPECT_EQ(config.dataset.format, Format::kMmapIndexedBinary);
  EXPECT_EQ(config.dataset.num_samples_per_file, 277203535);
  EXPECT_EQ(config.reader.batch_size, 16);
  EXPECT_DOUBLE_EQ(config.train.computation_time.mean, 2.44);
  EXPECT_EQ(config.train.epochs, 3);
  EXPECT_EQ(config.train.total_training_steps, 1000);
  EXPECT_EQ(config.checkpoint.steps_between_checkpoints, 1000);
  EXPECT_EQ(config.checkpoint.type, CheckpointType::kAllRanks);
  EXPECT_FALSE(config.model.is_transformer());
  EXPECT_EQ(config.model.num_layers, 40);
  EXPECT_EQ(config.model.parallelism.tensor, 4);
  EXPECT_EQ(config.model.parallelism.pipeline, 8);
  EXPECT_EQ(config.model.parallelism.zero_stage, 1);
  EXPECT_EQ(config.model.optimization_groups,
            (std::vector<std::int64_t>{1009254400, 865075200, 793600}));
  EXPECT_EQ(config.model.layer_parameters, (std::vector<std::int64_t>{52583936, 209715200}));
  EXPECT_EQ(config.model.model_size_bytes, 10240);  // DLIO's effective size, not 30102
}

TEST(ShippedWorkloadsTest, MegatronNeedsAMultipleOf32Ranks) {
  EXPECT_THROW(LoadShipped("megatron_deepspeed", 16), Error);
}

struct LlamaNumbers {
  std::string name;
  std::int64_t layers, hidden, ffn, heads, kv_heads;
  int tensor, pipeline, zero_stage, closed_ranks;
};

TEST(ShippedWorkloadsTest, LlamaCheckpointWorkloadsHaveMlperfShapes) {
  const std::vector<LlamaNumbers> models = {
      {"llama3_8b", 32, 4096, 14336, 32, 8, 1, 1, 3, 8},
      {"llama3_70b", 80, 8192, 28672, 128, 8, 8, 1, 3, 64},
      {"llama3_405b", 126, 16384, 53248, 128, 8, 8, 32, 1, 512},
      {"llama3_1t", 128, 25872, 98304, 192, 32, 8, 64, 1, 1024},
  };
  for (const auto& m : models) {
    SCOPED_TRACE(m.name);
    const Config config = LoadShipped(m.name, m.closed_ranks);
    EXPECT_TRUE(config.model.is_transformer());
    EXPECT_TRUE(config.workflow.checkpoint_only());
    EXPECT_FALSE(config.workflow.generate_data);
    EXPECT_EQ(config.framework, Framework::kPytorch);
    EXPECT_EQ(config.model.num_layers, m.layers);
    EXPECT_EQ(config.model.transformer.hidden_size, m.hidden);
    EXPECT_EQ(config.model.transformer.ffn_hidden_size, m.ffn);
    EXPECT_EQ(config.model.transformer.num_attention_heads, m.heads);
    EXPECT_EQ(config.model.transformer.num_kv_heads, m.kv_heads);
    EXPECT_EQ(config.model.transformer.vocab_size, 128256);
    EXPECT_EQ(config.model.parallelism.tensor, m.tensor);
    EXPECT_EQ(config.model.parallelism.pipeline, m.pipeline);
    EXPECT_EQ(config.model.parallelism.zero_stage, m.zero_stage);
    EXPECT_EQ(config.model.parallelism.data, -1);  // derived from the world size
    EXPECT_EQ(config.model.model_datatype, DataType::kFp16);
    EXPECT_EQ(config.model.optimizer_datatype, DataType::kFp32);
    EXPECT_TRUE(config.checkpoint.fsync);
    EXPECT_EQ(config.checkpoint.num_checkpoints_write, 10);
    EXPECT_EQ(config.checkpoint.num_checkpoints_read, 10);
    EXPECT_DOUBLE_EQ(config.checkpoint.time_between_checkpoints, 5);
    EXPECT_EQ(config.checkpoint.mode, CheckpointMode::kDefault);
  }
}

TEST(ShippedWorkloadsTest, Llama405bRejectsARankCountThatIsNotAMultipleOfTpTimesPp) {
  EXPECT_THROW(LoadShipped("llama3_405b", 384), Error);
}

TEST(ShippedWorkloadsTest, RetinanetAndFluxUseSupportedFormatsWithTheirSampleSizes) {
  const Config retinanet = LoadShipped("retinanet_b200", 2);
  EXPECT_EQ(retinanet.dataset.format, Format::kJpeg);
  EXPECT_EQ(retinanet.dataset.num_files_train, 1170301);
  EXPECT_EQ(retinanet.dataset.num_samples_per_file, 1);
  EXPECT_DOUBLE_EQ(retinanet.dataset.record_length_bytes, 322957);
  // Generated assembled by default (content.encoding auto), as the workload file says.
  EXPECT_EQ(retinanet.dataset.content.encoding, ContentEncoding::kAssembled);
  EXPECT_EQ(retinanet.reader.batch_size, 24);
  EXPECT_EQ(retinanet.reader.read_threads, 8);
  EXPECT_DOUBLE_EQ(retinanet.train.computation_time.mean, 0.04755);
  EXPECT_EQ(retinanet.train.epochs, 8);
  EXPECT_DOUBLE_EQ(retinanet.metric.au, 0.85);

  const Config flux = LoadShipped("flux_b200", 2);
  EXPECT_EQ(flux.dataset.format, Format::kParquet);
  EXPECT_EQ(flux.dataset.compression, Compression::kNone);
  ASSERT_EQ(flux.dataset.parquet.columns.size(), 5u);
  std::int64_t column_bytes = 0;
  for (const ParquetColumn& c : flux.dataset.parquet.columns) {
    EXPECT_EQ(c.dtype, "float32") << c.name;
    column_bytes += 4 * c.size;
  }
  EXPECT_EQ(flux.dataset.parquet.columns[0].name, "t5_encodings");
  EXPECT_EQ(flux.dataset.parquet.columns[4].size, 7);
  EXPECT_EQ(flux.dataset.num_files_train, 4296);
  EXPECT_EQ(flux.dataset.num_samples_per_file, 288);
  EXPECT_DOUBLE_EQ(flux.dataset.record_length_bytes, 2164832);
  EXPECT_EQ(column_bytes, 2164832);  // the sum of the five columns
  EXPECT_EQ(flux.reader.batch_size, 48);
  EXPECT_EQ(flux.reader.file_shuffle, Shuffle::kSeed);
  EXPECT_EQ(flux.reader.sample_shuffle, Shuffle::kOff);
  EXPECT_DOUBLE_EQ(flux.train.computation_time.mean, 1.35);
  EXPECT_DOUBLE_EQ(flux.metric.au, 0.90);
}

TEST(TestWorkloadsTest, TinyCheckpointIsATransformerCheckpointOnlyRun) {
  const Config config =
      Load((TestDataDir() / "tiny_checkpoint.yaml").string(), {}, OptionsFor(2)).config;
  EXPECT_TRUE(config.model.is_transformer());
  EXPECT_TRUE(config.workflow.checkpoint_only());
  EXPECT_GE(config.model.num_layers, 1);
  EXPECT_LE(config.model.transformer.hidden_size, 256);
  EXPECT_EQ(config.checkpoint.num_checkpoints_write, 2);
  EXPECT_EQ(config.checkpoint.num_checkpoints_read, 2);
}

TEST(TestWorkloadsTest, TinyUnet3dKeepsTheUnet3dShape) {
  const Config config =
      Load((TestDataDir() / "tiny_unet3d.yaml").string(), {}, OptionsFor(2)).config;
  EXPECT_EQ(config.dataset.format, Format::kNpz);
  EXPECT_EQ(config.dataset.num_files_train, 16);
  EXPECT_GT(config.dataset.record_length_bytes_stdev, 0);
  EXPECT_GT(config.dataset.record_length_bytes_resize, 0);
  EXPECT_LE(config.dataset.record_length_bytes, 256 * 1024);
  EXPECT_TRUE(config.workflow.generate_data);
  EXPECT_TRUE(config.workflow.checkpoint);
}

// configs/accelerators/*.yaml: each entry that names a shipped workload agrees with it, and the
// documented way to use a profile (two overrides) turns one workload into the other.
TEST(AcceleratorProfilesTest, AgreeWithTheShippedWorkloads) {
  const std::vector<fs::path> profiles = YamlFilesIn(AcceleratorsDir());
  ASSERT_EQ(profiles.size(), 5u);
  int checked = 0;
  for (const auto& profile : profiles) {
    SCOPED_TRACE(profile.string());
    const YAML::Node root = YAML::LoadFile(profile.string());
    EXPECT_EQ(root["accelerator"].as<std::string>(), profile.stem().string());
    ASSERT_TRUE(root["workloads"].IsMap());
    for (const auto& item : root["workloads"]) {
      const YAML::Node entry = item.second;
      const double compute = entry["computation_time"].as<double>();
      const std::int64_t batch = entry["batch_size"].as<std::int64_t>();
      EXPECT_GT(compute, 0.0);
      EXPECT_GE(batch, 1);
      if (!entry["workload"]) continue;
      const std::string name = entry["workload"].as<std::string>();
      SCOPED_TRACE(name);
      const Config config = LoadShipped(name);
      EXPECT_DOUBLE_EQ(config.train.computation_time.mean, compute);
      EXPECT_EQ(config.reader.batch_size, batch);
      ++checked;
    }
  }
  EXPECT_EQ(checked, 10);
}

TEST(AcceleratorProfilesTest, OverridesMoveAWorkloadToAnotherAccelerator) {
  const Config a100 = LoadShipped("unet3d_a100");
  const Config moved =
      LoadShipped("unet3d_h100", 1,
                  {"++workload.train.computation_time=0.636", "++workload.reader.batch_size=7"});
  EXPECT_DOUBLE_EQ(moved.train.computation_time.mean, a100.train.computation_time.mean);
  EXPECT_EQ(moved.reader.batch_size, a100.reader.batch_size);
}

}  // namespace
}  // namespace dlbench::config
