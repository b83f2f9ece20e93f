// Legacy spellings: each accepted with one notice; alias and canonical key with
// different values are an error.
#include <gtest/gtest.h>

#include "config_test_util.h"

namespace dlbench::config {
namespace {

using testing::LoadError;
using testing::LoadText;

// The one notice a document produces.
std::string OnlyNotice(const LoadResult& result) {
  EXPECT_EQ(result.notices.size(), 1u);
  return result.notices.empty() ? "" : result.notices[0];
}

TEST(Aliases, ModelAsAString) {
  const auto result = LoadText("model: unet3d\n");
  EXPECT_EQ(result.config.model.name, "unet3d");
  EXPECT_EQ(OnlyNotice(result), "model (w.yaml:1): read as model.name (DLIO <=1.0 form)");
}

TEST(Aliases, RecordLength) {
  const auto result = LoadText("dataset:\n  record_length: 2164832\n");
  EXPECT_EQ(result.config.dataset.record_length_bytes, 2164832.0);
  EXPECT_EQ(OnlyNotice(result),
            "dataset.record_length (w.yaml:2): read as dataset.record_length_bytes (DLIO <=1.0 "
            "spelling)");
}

TEST(Aliases, RecordLengthStdevAndResize) {
  const auto result =
      LoadText("dataset:\n  record_length_stdev: 10\n  record_length_resize: 1024.5\n");
  EXPECT_EQ(result.config.dataset.record_length_bytes_stdev, 10.0);
  EXPECT_EQ(result.config.dataset.record_length_bytes_resize, 1024);  // floored, like int(...)
  EXPECT_EQ(result.notices.size(), 2u);
}

TEST(Aliases, CheckpointModelSize) {
  const auto result = LoadText("checkpoint:\n  model_size: 4034713312\n");
  EXPECT_EQ(result.config.model.model_size_bytes, 4034713312);
  EXPECT_NE(OnlyNotice(result).find("read as model.model_size_bytes"), std::string::npos);
}

TEST(Aliases, ModelModelSizeIsHonouredWithTheDlioNote) {
  const auto result = LoadText("model:\n  name: unet3d\n  model_size: 499153191\n");
  EXPECT_EQ(result.config.model.model_size_bytes, 499153191);
  EXPECT_EQ(OnlyNotice(result),
            "model.model_size (w.yaml:3): read as model.model_size_bytes (honoured by dlbench, "
            "but DLIO >=2.0 ignored it and wrote a 10240-byte model)");
}

// DLIO >=2.0 reads only model.model_size_bytes: the config remembers when the size came from the
// key it ignores, in the document or an override, so that the plan can say what DLIO writes.
TEST(Aliases, RemembersAModelSizeDlioIgnores) {
  EXPECT_TRUE(
      LoadText("model:\n  model_size: 499153191\n").config.model.model_size_ignored_by_dlio);
  EXPECT_TRUE(
      LoadText("", {"++workload.model.model_size=30102"}).config.model.model_size_ignored_by_dlio);
  EXPECT_FALSE(
      LoadText("model:\n  model_size_bytes: 499153191\n").config.model.model_size_ignored_by_dlio);
  EXPECT_FALSE(LoadText("model:\n  model_size: 499153191\n  model_size_bytes: 499153191\n")
                   .config.model.model_size_ignored_by_dlio);
  EXPECT_FALSE(
      LoadText("model:\n  model_size: 499153191\n", {"++workload.model.model_size_bytes=499153191"})
          .config.model.model_size_ignored_by_dlio);
  EXPECT_FALSE(LoadText("checkpoint:\n  model_size: 4034713312\n")  // DLIO <=1.0 read it
                   .config.model.model_size_ignored_by_dlio);
  EXPECT_FALSE(LoadText("").config.model.model_size_ignored_by_dlio);
}

TEST(Aliases, LegacyCheckpointModelKeys) {
  const auto result = LoadText(
      "checkpoint:\n  optimization_groups: [1009254400, 865075200]\n  num_layers: 40\n"
      "  layer_parameters: [52583936, 209715200]\n  tensor_parallelism: 4\n"
      "  pipeline_parallelism: 8\nworkflow: {train: false, checkpoint: true}\n",
      {}, 32);
  const ModelConfig& model = result.config.model;
  EXPECT_EQ(model.optimization_groups, (std::vector<std::int64_t>{1009254400, 865075200}));
  EXPECT_EQ(model.num_layers, 40);
  EXPECT_EQ(model.layer_parameters, (std::vector<std::int64_t>{52583936, 209715200}));
  EXPECT_EQ(model.parallelism.tensor, 4);
  EXPECT_EQ(model.parallelism.pipeline, 8);
  EXPECT_EQ(result.notices.size(), 5u);
}

TEST(Aliases, DataReaderSection) {
  const auto result = LoadText("data_reader:\n  batch_size: 4\n");
  EXPECT_EQ(result.config.reader.batch_size, 4);
  EXPECT_EQ(OnlyNotice(result), "data_reader (w.yaml:1): read as reader (legacy section name)");
}

TEST(Aliases, DataReaderAndReaderMergeWhenTheyAgree) {
  const auto result = LoadText(
      "data_reader:\n  batch_size: 4\n  read_threads: 2\nreader:\n  batch_size: 4\n"
      "  prefetch_size: 0\n");
  EXPECT_EQ(result.config.reader.batch_size, 4);
  EXPECT_EQ(result.config.reader.read_threads, 2);
  EXPECT_EQ(result.config.reader.prefetch_size, 0);
}

TEST(Aliases, DataReaderAndReaderConflict) {
  EXPECT_EQ(LoadError("data_reader:\n  batch_size: 4\nreader:\n  batch_size: 8\n"),
            "data_reader.batch_size = 4 (w.yaml:2) and reader.batch_size = 8 (w.yaml:4) are the "
            "same key (legacy and current spelling) with different values; keep only "
            "reader.batch_size");
}

TEST(Aliases, AliasAndCanonicalWithDifferentValues) {
  EXPECT_EQ(LoadError("dataset:\n  record_length: 100\n  record_length_bytes: 200\n"),
            "dataset.record_length = 100 (w.yaml:2) and dataset.record_length_bytes = 200 "
            "(w.yaml:3) are the same key (legacy and current spelling) with different values; "
            "keep only dataset.record_length_bytes");
  EXPECT_NE(LoadError("checkpoint: {model_size: 1}\nmodel: {model_size_bytes: 2}\n")
                .find("are the same key"),
            std::string::npos);
}

TEST(Aliases, AliasAndCanonicalWithTheSameValue) {
  const auto result = LoadText("dataset:\n  record_length: 100\n  record_length_bytes: 100.0\n");
  EXPECT_EQ(result.config.dataset.record_length_bytes, 100.0);
}

TEST(Aliases, FlatStdevOfEveryTimeValue) {
  const auto result = LoadText(
      "train:\n  computation_time: 1.5\n  computation_time_stdev: 0.2\n"
      "reader:\n  preprocess_time: 0.1\n  preprocess_time_stdev: 0.01\n"
      "evaluation:\n  eval_time: {mean: 2}\n  eval_time_stdev: 0.5\n");
  const Config& config = result.config;
  EXPECT_EQ(config.train.computation_time.kind, TimeDistribution::Kind::kNormal);
  EXPECT_EQ(config.train.computation_time.mean, 1.5);
  EXPECT_EQ(config.train.computation_time.stdev, 0.2);
  EXPECT_EQ(config.reader.preprocess_time.stdev, 0.01);
  EXPECT_EQ(config.evaluation.eval_time.mean, 2.0);
  EXPECT_EQ(config.evaluation.eval_time.stdev, 0.5);
  EXPECT_EQ(result.notices.size(), 3u);
  EXPECT_EQ(result.notices[0],
            "train.computation_time_stdev (w.yaml:3): read as train.computation_time.stdev (flat "
            "form of the stdev)");
}

TEST(Aliases, FlatStdevConflictsWithTheMapping) {
  EXPECT_NE(LoadError("train:\n  computation_time: {mean: 1, stdev: 0.1}\n"
                      "  computation_time_stdev: 0.3\n")
                .find("are the same key"),
            std::string::npos);
}

TEST(Aliases, WorkflowDebugIsAcceptedWithoutEffect) {
  const auto result = LoadText("workflow:\n  debug: False\n");
  EXPECT_EQ(OnlyNotice(result),
            "workflow.debug (w.yaml:2): accepted without effect (a DLIO <=1.0 key, ignored)");
}

TEST(Aliases, KeysWithoutEffectGetANotice) {
  const auto result = LoadText(
      "reader: {file_access: shared}\ncheckpoint: {type: all_ranks}\n"
      "dataset: {enable_chunking: true, chunk_size: 1024, record_element_bytes: 4}\n");
  EXPECT_EQ(result.notices.size(), 5u);
  EXPECT_EQ(result.config.reader.file_access, FileAccess::kShared);
  EXPECT_EQ(result.config.checkpoint.type, CheckpointType::kAllRanks);
  for (const auto& notice : result.notices) {
    EXPECT_NE(notice.find("accepted without effect"), std::string::npos) << notice;
  }
}

TEST(Aliases, InOverrides) {
  const auto result = LoadText(
      "{}", {"++workload.dataset.record_length=4096", "++workload.model=resnet50",
             "++workload.data_reader.batch_size=3", "++workload.train.computation_time_stdev=0.1"});
  EXPECT_EQ(result.config.dataset.record_length_bytes, 4096.0);
  EXPECT_EQ(result.config.model.name, "resnet50");
  EXPECT_EQ(result.config.reader.batch_size, 3);
  EXPECT_EQ(result.config.train.computation_time.kind, TimeDistribution::Kind::kNormal);
  EXPECT_EQ(result.notices.size(), 4u);
  EXPECT_EQ(result.notices[0],
            "dataset.record_length (override ++workload.dataset.record_length=4096): read as "
            "dataset.record_length_bytes (DLIO <=1.0 spelling)");
}

TEST(Aliases, OverrideOfTheCanonicalKeyBeatsTheFilesAlias) {
  const auto result =
      LoadText("dataset:\n  record_length: 100\n", {"++dataset.record_length_bytes=200"});
  EXPECT_EQ(result.config.dataset.record_length_bytes, 200.0);
}

}  // namespace
}  // namespace dlbench::config
