// Loading a workload: files found by name or path, defaults, typed sections, source and
// overrides recorded, ToYaml / Query / OverridesYaml.
#include "config/load.h"

#include <gtest/gtest.h>

#include "config_test_util.h"
#include "support/expect_error.h"
#include "support/test_support.h"

namespace dlbench::config {
namespace {

using testing::LoadError;
using testing::LoadText;
using testing::UsageMessage;

constexpr const char* kUnet = R"(model:
  name: unet3d
  type: cnn
framework: pytorch
workflow:
  generate_data: False
  train: True
  checkpoint: True
dataset:
  data_folder: data/unet3d/
  format: npz
  num_files_train: 168
  num_samples_per_file: 1
  record_length_bytes: 146600628
  record_length_bytes_stdev: 68341808
  record_length_bytes_resize: 2097152
reader:
  data_loader: pytorch
  batch_size: 7
  read_threads: 4
  file_shuffle: seed
  sample_shuffle: seed
train:
  epochs: 5
  computation_time: 0.323
checkpoint:
  checkpoint_folder: checkpoints/unet3d/
  checkpoint_after_epoch: 5
  epochs_between_checkpoints: 2
metric:
  au: 0.90
)";

TEST(Load, EmptyDocumentGivesDlioDefaults) {
  const Config config = LoadText("{}").config;
  Config defaults;
  defaults.source_file = "w.yaml";
  // dataset.content.encoding's default, auto, is resolved at load: per_file for tfrecord.
  defaults.dataset.content.encoding = ContentEncoding::kPerFile;
  EXPECT_EQ(config, defaults);
  EXPECT_EQ(config.model.name, "default");
  EXPECT_EQ(config.dataset.num_files_train, 8);
  EXPECT_EQ(config.dataset.data_folder, "./data");
  EXPECT_EQ(config.reader.prefetch_size, 2);
  EXPECT_EQ(config.model.transformer.ffn_hidden_size, 8192);
}

TEST(Load, TypedValuesFromAWorkload) {
  const Config config = LoadText(kUnet).config;
  EXPECT_EQ(config.model.name, "unet3d");
  EXPECT_EQ(config.model.type, "cnn");
  EXPECT_FALSE(config.model.is_transformer());
  EXPECT_EQ(config.framework, Framework::kPytorch);
  EXPECT_TRUE(config.workflow.checkpoint);
  EXPECT_EQ(config.dataset.data_folder, "data/unet3d");  // relative, trailing '/' stripped
  EXPECT_EQ(config.dataset.format, Format::kNpz);
  EXPECT_EQ(config.dataset.record_length_bytes, 146600628.0);
  EXPECT_EQ(config.dataset.record_length_bytes_resize, 2097152);
  EXPECT_EQ(config.reader.data_loader, DataLoader::kPytorch);
  EXPECT_EQ(config.reader.sampler(), SamplerKind::kIndex);
  EXPECT_EQ(config.reader.file_shuffle, Shuffle::kSeed);
  EXPECT_EQ(config.train.computation_time.kind, TimeDistribution::Kind::kConstant);
  EXPECT_EQ(config.train.computation_time.mean, 0.323);
  EXPECT_EQ(config.checkpoint.checkpoint_folder, "checkpoints/unet3d");
  EXPECT_EQ(config.checkpoint.epochs_between_checkpoints, 2);
  EXPECT_EQ(config.metric.au, 0.90);
}

TEST(Load, FindsAWorkloadByNameOrPathAndRecordsSourceAndOverrides) {
  test::TempDir dir;
  const auto file = dir.write("mini.yaml", "dataset:\n  num_files_train: 4\n");
  LoadOptions options;
  options.workloads_dir = dir.path().string();
  const std::vector<std::string> overrides = {"++workload.dataset.num_files_eval=2"};
  const Config by_name = Load("mini", overrides, options).config;
  EXPECT_EQ(by_name.source_file, file.string());
  EXPECT_EQ(by_name.overrides, overrides);
  EXPECT_EQ(by_name.dataset.num_files_train, 4);
  EXPECT_EQ(by_name.dataset.num_files_eval, 2);
  const Config by_path = Load(file.string(), {}, options).config;
  EXPECT_EQ(by_path.dataset.num_files_train, 4);
  const Config selected = Load("workload=mini", {}, options).config;
  EXPECT_EQ(selected.dataset.num_files_train, 4);
}

// A mistyped --config-dir used to fall through to the shipped workload of the same name (another
// file than the one edited, silently); /dev/null or a FIFO "did not exist"; with no workload
// folder at all the message listed none ("Looked in:.").
TEST(Load, WorkloadFoldersAndFilesThatCannotBeUsedAreNamed) {
  test::TempDir dir;
  dir.write("mini.yaml", "dataset:\n  num_files_train: 4\n");
  LoadOptions options;
  options.workloads_dir = dir.path().string();
  options.config_dirs = {(dir / "no_such_folder").string()};
  EXPECT_EQ(UsageMessage([&] { Load("mini", {}, options); }),
            "--config-dir " + (dir / "no_such_folder").string() + ": no such folder");
  options.config_dirs = {};
  EXPECT_EQ(UsageMessage([&] { Load("/dev/null", {}, options); }),
            "workload file '/dev/null' is not a regular file (a device, FIFO or socket); give a "
            "YAML file");
  // Without a suggestion the sentence ran on ("unknown workload 'zzz' Looked in: ...").
  EXPECT_EQ(UsageMessage([&] { Load("zzzzzzzz", {}, options); }),
            "unknown workload 'zzzzzzzz'; looked in: " + dir.path().string() +
                ". `dlbench workloads` lists them; a path to a YAML file also works.");
  options.workloads_dir = (dir / "no_such_folder").string();
  EXPECT_EQ(UsageMessage([&] { Load("mini", {}, options); }),
            "unknown workload 'mini': there is no workload folder; give a path to a YAML file or "
            "--config-dir DIR.");
}

TEST(Load, HydraConfigRootedAtWorkloadIsUnwrapped) {
  const auto result = LoadText("workload:\n  dataset:\n    num_files_train: 3\n");
  EXPECT_EQ(result.config.dataset.num_files_train, 3);
  ASSERT_EQ(result.notices.size(), 1u);
  EXPECT_NE(result.notices[0].find("rooted at `workload:`"), std::string::npos);
}

TEST(Load, NotAMappingIsAnError) {
  EXPECT_NE(LoadError("- a\n- b\n").find("must be a mapping"), std::string::npos);
  EXPECT_NE(LoadError("dataset: 5\n").find("dataset: expected a section"), std::string::npos);
}

TEST(Load, InvalidYamlNamesFileAndLine) {
  const std::string message = LoadError("dataset:\n  num_files_train: [1, 2\n");
  EXPECT_NE(message.find("w.yaml:"), std::string::npos) << message;
  EXPECT_NE(message.find("not valid YAML"), std::string::npos) << message;
}

// yaml-cpp takes a quote left open to the end of the text as one long string, swallowing the
// sections after it; closed quotes, escaped ones and quoted strings over several lines still load.
TEST(Load, UnclosedQuoteIsAnError) {
  for (const char* text :
       {"model:\n  name: \"open\ndataset:\n  format: npz\n",
        "model:\n  name: 'open\ndataset:\n  format: npz\n", "model:\n  name: \"open \\\"\n"}) {
    const std::string message = LoadError(text);
    EXPECT_NE(message.find("w.yaml:2: not valid YAML: a quoted string is not closed"),
              std::string::npos)
        << message;
  }
  EXPECT_EQ(LoadText("model:\n  name: \"a \\\" b\"\n").config.model.name, "a \" b");
  EXPECT_EQ(LoadText("model:\n  name: 'it''s'\n").config.model.name, "it's");
  EXPECT_EQ(LoadText("model:\n  name: \"two\n    lines\"\n").config.model.name, "two lines");
}

// A workload file or override that is not UTF-8 (a Latin-1 model name) is refused when loaded,
// naming the line and byte; before, the run went on and ended with an internal error (exit 1)
// when summary.json was written. UTF-8 text, UTF-16 with its byte order mark, is read.
TEST(Load, TextThatIsNotUtf8IsRefusedWithItsLine) {
  std::string message = LoadError("model:\n  name: caf\xE9\n");
  EXPECT_NE(message.find("w.yaml:2: not valid YAML: byte 0xE9 at column 12 is not UTF-8"),
            std::string::npos)
      << message;
  for (const char* text : {"model:\n  name: \xC0\xAF\n",          // overlong '/'
                           "model:\n  name: \xED\xA0\x80\n",      // a surrogate
                           "model:\n  name: \xF4\x90\x80\x80\n",  // above U+10FFFF
                           "model:\n  name: \xE6\x97\n"}) {       // cut short
    message = LoadError(text);
    EXPECT_NE(message.find("w.yaml:2: not valid YAML: byte 0x"), std::string::npos) << message;
  }
  message = LoadError("{}", {"++workload.model.name=caf\xE9"});
  EXPECT_NE(message.find("override at character 26 is not UTF-8"), std::string::npos) << message;
  EXPECT_EQ(
      LoadText("model:\n  name: caf\xC3\xA9 \xE6\x97\xA5 \xF0\x9F\x98\x80\n").config.model.name,
      "caf\xC3\xA9 \xE6\x97\xA5 \xF0\x9F\x98\x80");
  EXPECT_EQ(LoadText("{}", {"++workload.model.name=\xE6\x97\xA5"}).config.model.name,
            "\xE6\x97\xA5");
  constexpr char kUtf16[] = "\xFF\xFEm\0o\0d\0e\0l\0:\0 \0{\0n\0a\0m\0e\0:\0 \0x\0}\0\n\0";
  EXPECT_EQ(LoadText(std::string(kUtf16, sizeof kUtf16 - 1)).config.model.name, "x");
}

TEST(Load, EmptySectionsKeepDefaults) {
  const Config config = LoadText("train:\nreader:\n").config;
  EXPECT_EQ(config.train.epochs, 1);
  EXPECT_EQ(config.reader.batch_size, 1);
}

TEST(ToYaml, RoundTripOfAWorkload) {
  const Config config = LoadText(kUnet, {"++workload.train.computation_time.stdev=0.01"}).config;
  Config again = LoadText(ToYaml(config)).config;
  again.overrides = config.overrides;
  EXPECT_EQ(again, config) << ToYaml(config);
}

TEST(ToYaml, WritesEveryKeyWithEnumNamesAndExplicitDistributions) {
  const Config config =
      LoadText(kUnet, {"++workload.reader.preprocess_time={mean: 0.5, stdev: 0.1}"}).config;
  const std::string yaml = ToYaml(config);
  EXPECT_NE(yaml.find("framework: pytorch"), std::string::npos) << yaml;
  EXPECT_NE(yaml.find("file_shuffle: seed"), std::string::npos) << yaml;
  EXPECT_NE(yaml.find("sample_shuffle: seed"), std::string::npos) << yaml;
  EXPECT_NE(yaml.find("num_files_eval: 0"), std::string::npos) << yaml;      // a default
  EXPECT_NE(yaml.find("generation_threads: 1"), std::string::npos) << yaml;  // dlbench key
  EXPECT_NE(yaml.find("type: normal"), std::string::npos) << yaml;
  EXPECT_NE(yaml.find("computation_time: 0.323"), std::string::npos) << yaml;
  EXPECT_NE(yaml.find("exclude_start_steps: 1"), std::string::npos) << yaml;
  EXPECT_EQ(yaml.find("model_size:"), std::string::npos) << yaml;
  EXPECT_EQ(yaml.find("debug"), std::string::npos) << yaml;
}

TEST(ToYaml, RoundTripOfEveryDlbenchAddition) {
  const std::string yaml = R"(
storage:
  storage_options: {region: us-east-1}
  tiers:
    nvme: {path: /nvme, capacity: 64GiB, bandwidth_limit: 400MiB/s, latency: 2ms}
    hdd: {path: /hdd}
dataset:
  generation_threads: 4
  fsync: true
  content: {kind: compressible, compress_ratio: 3.5, seed: 7}
  hdf5: {chunk_dims: [1, 2], num_dset_per_record: 1, max_shape: [8]}
  record_dims: [4, 4]
  format: hdf5
  record_length_bytes_stdev: 0
reader:
  transfer_size: 262144
  drop_caches: fadvise
  on_error: skip
  thread_policy: normal
  data_loader_sampler: iterative
  preprocess_time: {type: gamma, shape: 2, scale: 0.5}
train:
  step_barrier: false
  computation_time: {type: uniform, min: 0.1, max: 0.2}
evaluation:
  eval_time: {type: exponential, scale: 0.3}
checkpoint:
  write_threads: 3
  odirect: true
  verify: true
  randomize_tensor: false
  ksm: {await_time: 10}
  burst_buffer: {tier: nvme, drain_threads: 4, evict_after_drain: false}
  time_between_checkpoints: 2.5
model:
  type: transformer
  optimization_groups: [1, 2, 3]
output:
  folder: out/run1
  metric: {exclude_start_steps: 2, exclude_end_steps: 1}
profiling:
  iostat_devices: [sda, nvme0n1]
)";
  const Config config = LoadText(yaml).config;
  EXPECT_EQ(config.checkpoint.ksm_options.await_time, 10);
  EXPECT_EQ(config.reader.thread_policy, ThreadPolicy::kNormal);
  EXPECT_EQ(config.storage.tiers.size(), 2u);
  const Config again = LoadText(ToYaml(config)).config;
  EXPECT_EQ(again, config) << ToYaml(config);
}

TEST(ToYaml, RoundTripOfPoissonAndStringsThatLookTyped) {
  const Config config = LoadText(
                            "model: {name: 'true', type: 'null'}\ndataset: {file_prefix: '123'}\n"
                            "train: {computation_time: {type: poisson, lam: 3}}\n")
                            .config;
  EXPECT_EQ(config.model.type, "null");
  const Config again = LoadText(ToYaml(config)).config;
  EXPECT_EQ(again, config) << ToYaml(config);
}

TEST(Query, PrintsOneResolvedValue) {
  const Config config = LoadText(kUnet).config;
  EXPECT_EQ(Query(config, "dataset.num_files_train"), "168");
  EXPECT_EQ(Query(config, "workload.reader.file_shuffle"), "seed");
  EXPECT_EQ(Query(config, "model.parallelism.tensor"), "1");
  EXPECT_EQ(Query(config, "checkpoint.ksm"), "null");
  EXPECT_EQ(Query(config, "output.folder"), "null");
  EXPECT_NE(Query(config, "output.metric").find("exclude_end_steps: 0"), std::string::npos);
}

TEST(Query, UnknownKeySuggestsTheClosest) {
  const Config config = LoadText("{}").config;
  const std::string message =
      testing::UsageMessage([&] { Query(config, "dataset.num_file_train"); });
  EXPECT_EQ(message, "dataset.num_file_train: unknown key; did you mean num_files_train?");
}

// A time value's parameters: before, any one the value did not hold printed "null" (exit 0),
// even the mean of a constant, which `++workload.train.computation_time.mean=` sets.
TEST(Query, TimeValueParameters) {
  const Config constant = LoadText("train: {computation_time: 0.323}\n").config;
  EXPECT_EQ(Query(constant, "train.computation_time.mean"), "0.323");
  EXPECT_EQ(testing::UsageMessage([&] { Query(constant, "train.computation_time.stdev"); }),
            "train.computation_time.stdev: train.computation_time is 0.323, a constant, which has "
            "no stdev; query train.computation_time for the whole value");
  const Config uniform =
      LoadText("train: {computation_time: {type: uniform, min: 0.1, max: 0.2}}\n").config;
  EXPECT_EQ(Query(uniform, "train.computation_time.max"), "0.2");
  EXPECT_EQ(testing::UsageMessage([&] { Query(uniform, "workload.train.computation_time.mean"); }),
            "workload.train.computation_time.mean: train.computation_time is {type: uniform, min: "
            "0.1, max: 0.2}, which has no mean; query train.computation_time for the whole value");
  const Config normal = LoadText("train: {computation_time: {mean: 0.3, stdev: 0.01}}\n").config;
  EXPECT_EQ(Query(normal, "train.computation_time.stdev"), "0.01");
}

TEST(OverridesYaml, ListsTheStringsVerbatim) {
  EXPECT_EQ(OverridesYaml({"++workload.dataset.data_folder=/x", "workload.reader.odirect=True"}),
            "- ++workload.dataset.data_folder=/x\n- workload.reader.odirect=True\n");
  EXPECT_EQ(OverridesYaml({}), "[]\n");
}

}  // namespace
}  // namespace dlbench::config

namespace dlbench::config {
namespace {

LoadOptions OnNode(const std::string& node) {
  LoadOptions options;
  options.node = node;
  return options;
}

// Block style: in a flow mapping the braces of {node} need quotes.
constexpr const char* kNodeLocalTier =
    "storage:\n  tiers:\n    nvme:\n      path: /local/{node}/bb\n";

TEST(NodeLocalTier, NodeInThePathIsThisNodesFolderAndMakesTheTierNodeLocal) {
  const Config config = LoadYamlText(kNodeLocalTier, "w.yaml", {}, OnNode("n1")).config;
  ASSERT_EQ(config.storage.tiers.size(), 1u);
  EXPECT_EQ(config.storage.tiers[0].path, "/local/n1/bb");
  EXPECT_EQ(config.storage.tiers[0].path_template, "/local/{node}/bb");
  EXPECT_TRUE(config.storage.tiers[0].node_local);
  // The saved configuration keeps the template, so each node loads its own folder from it.
  const std::string yaml = ToYaml(config);
  EXPECT_NE(yaml.find("/local/{node}/bb"), std::string::npos) << yaml;
  EXPECT_EQ(LoadYamlText(yaml, "w.yaml", {}, OnNode("n1")).config, config);
  EXPECT_EQ(LoadYamlText(yaml, "again.yaml", {}, OnNode("n2")).config.storage.tiers[0].path,
            "/local/n2/bb");
}

TEST(NodeLocalTier, TheSamePathOnEveryNodeIsNodeLocalByKey) {
  const Config config = LoadYamlText("storage: {tiers: {nvme: {path: /nvme, node_local: true}}}\n",
                                     "w.yaml", {}, OnNode("n1"))
                            .config;
  EXPECT_EQ(config.storage.tiers[0].path, "/nvme");
  EXPECT_TRUE(config.storage.tiers[0].node_local);
  EXPECT_FALSE(LoadYamlText("storage: {tiers: {hdd: {path: /hdd}}}\n", "w.yaml", {}, OnNode("n1"))
                   .config.storage.tiers[0]
                   .node_local);
}

TEST(NodeLocalTier, NodeInThePathOfATierSaidNotNodeLocalIsAUsageError) {
  dlbench::test::ExpectError(
      [] {
        LoadYamlText("storage: {tiers: {nvme: {path: '/l/{node}', node_local: false}}}\n", "w.yaml",
                     {}, OnNode("n1"));
      },
      ExitCode::kUsage, {"storage.tiers.nvme.node_local", "makes a folder per node"});
}

TEST(NodeLocalTier, NodeInAPathWithoutANodeNameIsAnInternalError) {
  dlbench::test::ExpectError([] { LoadYamlText(kNodeLocalTier, "w.yaml", {}, LoadOptions{}); },
                             ExitCode::kInternal, {"config::Load got no node name"});
}

}  // namespace
}  // namespace dlbench::config

namespace dlbench::config {
namespace {

// Credentials in storage.storage_options stay in the loaded Config (the storage needs them) but
// are never written back: not in config.yaml (ToYaml), `dlbench config` or a query.
TEST(ToYaml, HidesCredentialsAmongStorageOptions) {
  const Config config =
      testing::LoadText(
          "storage:\n  storage_library: s3dlio\n  storage_options:\n    access_key_id: AKID\n"
          "    secret_access_key: sEcReT-value\n    session_token: ToKeN-value\n"
          "    endpoint_url: http://127.0.0.1:9000\n")
          .config;
  EXPECT_EQ(config.storage.storage_options.at("secret_access_key"), "sEcReT-value");
  EXPECT_EQ(config.storage.storage_library, "s3dlio");
  const std::string yaml = ToYaml(config);
  EXPECT_EQ(yaml.find("sEcReT-value"), std::string::npos) << yaml;
  EXPECT_EQ(yaml.find("ToKeN-value"), std::string::npos) << yaml;
  EXPECT_NE(yaml.find("secret_access_key: (hidden)"), std::string::npos) << yaml;
  EXPECT_NE(yaml.find("access_key_id: AKID"), std::string::npos) << yaml;
  EXPECT_NE(yaml.find("storage_library: s3dlio"), std::string::npos) << yaml;
  EXPECT_EQ(Query(config, "storage.storage_options.secret_access_key"), "(hidden)");
  EXPECT_EQ(Query(config, "storage.storage_options").find("sEcReT"), std::string::npos);
}

}  // namespace
}  // namespace dlbench::config

namespace dlbench::config {
namespace {

TEST(OverridesYaml, HidesCredentialsSetOnTheCommandLine) {
  const std::string yaml =
      OverridesYaml({"++workload.storage.storage_options.secret_access_key=sEcReT",
                     "storage.storage_options.access_key_id=AKID",
                     "++workload.storage.storage_options={"
                     "secret_access_key: sEcReT2, region: eu}",
                     "++workload.train.epochs=2"});
  EXPECT_EQ(yaml.find("sEcReT"), std::string::npos) << yaml;
  EXPECT_NE(yaml.find("++workload.storage.storage_options.secret_access_key=(hidden)"),
            std::string::npos)
      << yaml;
  EXPECT_NE(yaml.find("storage.storage_options.access_key_id=AKID"), std::string::npos) << yaml;
  EXPECT_NE(yaml.find("++workload.train.epochs=2"), std::string::npos) << yaml;
}

}  // namespace
}  // namespace dlbench::config
