// Unknown and duplicate keys: errors naming the key path, file:line and the closest known key.
#include <gtest/gtest.h>

#include "config_test_util.h"
#include "support/test_support.h"

namespace dlbench::config {
namespace {

using testing::LoadError;
using testing::LoadText;
using testing::UsageMessage;

LoadResult LoadFile(const test::TempDir& dir, const std::string& yaml,
                    bool allow_unknown_keys = false) {
  const auto file = dir.write("x.yaml", yaml);
  LoadOptions options;
  options.allow_unknown_keys = allow_unknown_keys;
  return Load(file.string(), {}, options);
}

constexpr const char* kTypo = R"(# a workload
model:
  name: x
dataset:
  num_files_train: 4
  format: npz
  record_lenght_bytes: 1024
)";

TEST(UnknownKey, NamesPathFileLineAndSuggestion) {
  test::TempDir dir;
  const std::string message = UsageMessage([&] { LoadFile(dir, kTypo); });
  EXPECT_EQ(message, "dataset.record_lenght_bytes: unknown key (" + (dir / "x.yaml").string() +
                         ":7); did you mean record_length_bytes?");
}

TEST(UnknownKey, AllowedBecomesANoticeAndIsSkipped) {
  test::TempDir dir;
  const auto result = LoadFile(dir, kTypo, /*allow_unknown_keys=*/true);
  EXPECT_EQ(result.config.dataset.record_length_bytes, 65536.0);
  EXPECT_EQ(result.config.dataset.num_files_train, 4);
  ASSERT_EQ(result.notices.size(), 1u);
  EXPECT_NE(result.notices[0].find("dataset.record_lenght_bytes: unknown key"), std::string::npos);
  EXPECT_NE(result.notices[0].find("(ignored)"), std::string::npos);
}

TEST(UnknownKey, TopLevelSection) {
  EXPECT_EQ(LoadError("datset:\n  num_files_train: 4\n"),
            "datset: unknown key (w.yaml:1); did you mean dataset?");
}

TEST(UnknownKey, DlbenchProfilingKey) {
  EXPECT_EQ(LoadError("profiling:\n  trace_writer_prio: low\n"),
            "profiling.trace_writer_prio: unknown key (w.yaml:2); did you mean "
            "trace_writer_priority?");
}

TEST(UnknownKey, NothingClose) {
  EXPECT_EQ(LoadError("reader:\n  completely_different: 1\n"),
            "reader.completely_different: unknown key (w.yaml:2)");
}

TEST(UnknownKey, NestedSections) {
  EXPECT_EQ(LoadError("model:\n  parallelism:\n    tensr: 2\n"),
            "model.parallelism.tensr: unknown key (w.yaml:3); did you mean tensor?");
  EXPECT_EQ(LoadError("output:\n  metric:\n    exclude_start_step: 2\n"),
            "output.metric.exclude_start_step: unknown key (w.yaml:3); did you mean "
            "exclude_start_steps?");
}

TEST(UnknownKey, InsideCompositeValues) {
  EXPECT_EQ(LoadError("storage:\n  tiers:\n    nvme:\n      pth: /nvme\n"),
            "storage.tiers.nvme.pth: unknown key (w.yaml:4); did you mean path?");
  EXPECT_EQ(LoadError("checkpoint:\n  burst_buffer:\n    tiers: nvme\n"),
            "checkpoint.burst_buffer.tiers: unknown key (w.yaml:3); did you mean tier?");
  EXPECT_EQ(LoadError("checkpoint:\n  ksm:\n    await: 1\n"),
            "checkpoint.ksm.await: unknown key (w.yaml:3)");
  EXPECT_EQ(LoadError("dataset:\n  content:\n    kinds: zeros\n"),
            "dataset.content.kinds: unknown key (w.yaml:3); did you mean kind?");
  EXPECT_EQ(LoadError("dataset:\n  hdf5:\n    chunk_dim: [1]\n"),
            "dataset.hdf5.chunk_dim: unknown key (w.yaml:3); did you mean chunk_dims?");
}

TEST(UnknownKey, FreeFormMapsAcceptAnyName) {
  const Config config =
      LoadText("storage:\n  storage_options:\n    anything: x\n    region: eu\n").config;
  EXPECT_EQ(config.storage.storage_options.at("anything"), "x");
  EXPECT_EQ(config.storage.storage_options.at("region"), "eu");
}

TEST(DuplicateKey, InOneMappingIsAnError) {
  EXPECT_EQ(LoadError("reader:\n  batch_size: 4\n  read_threads: 2\n  batch_size: 8\n"),
            "duplicate key 'batch_size' (w.yaml:4); it is already set (w.yaml:2)");
  EXPECT_NE(LoadError("dataset: {}\ndataset: {}\n").find("duplicate key 'dataset'"),
            std::string::npos);
}

TEST(DuplicateKey, SameNameInDifferentSectionsIsFine) {
  const Config config =
      LoadText("workflow: {checkpoint: true}\ncheckpoint: {fsync: true}\n").config;
  EXPECT_TRUE(config.workflow.checkpoint);
  EXPECT_TRUE(config.checkpoint.fsync);
}

}  // namespace
}  // namespace dlbench::config
