// Every validation rule on values (config/validate.cpp): a document that
// breaks it, and the message. The rules on the dataset section are in validate_dataset_test.cpp;
// those on tiers, the burst buffer, staging and folders, and the phases a command forces, are in
// storage_rules_test.cpp. Each case loads a small valid base plus
// one change, so the rule under test is the only one broken; UsageMessage also checks the exit
// code (kUsage).
#include <gtest/gtest.h>
#include <sched.h>

#include <optional>
#include <utility>

#include "config_test_util.h"

namespace dlbench::config {
namespace {

using testing::LoadText;
using testing::RuleCase;
using testing::UsageMessage;

class ValidationRule : public ::testing::TestWithParam<RuleCase> {};

TEST_P(ValidationRule, IsRejectedWithItsMessage) { testing::ExpectRejected(GetParam()); }

constexpr const char* kCheckpointOnly = "workflow: {train: false, checkpoint: true}\n";

const RuleCase kRules[] = {
    // model
    {"ModelNameWithNewline",
     "model: {name: \"a\\nb\"}\n",
     {},
     1,
     "model.name: must be one line without control characters (it is printed in dlio.log and on "
     "the terminal, one line per entry), got a newline at character 2 (w.yaml:1)"},
    {"ModelNameWithControlCharacter",
     "model: {name: \"a\\x01\"}\n",
     {},
     1,
     "model.name: must be one line without control characters (it is printed in dlio.log and on "
     "the terminal, one line per entry), got control character 1 at character 2"},
    {"LogFileWithCarriageReturn",
     "output: {log_file: \"x\\r.log\"}\n",
     {},
     1,
     "output.log_file: must be one line without control characters"},
    {"TensorBelowOne",
     "model: {parallelism: {tensor: 0}}\n",
     {},
     1,
     "model.parallelism.tensor: must be >= 1, got 0 (w.yaml:1)"},
    {"PipelineBelowOne",
     "model: {parallelism: {pipeline: -2}}\n",
     {},
     1,
     "model.parallelism.pipeline: must be >= 1, got -2"},
    {"ZeroStageOutOfRange",
     "model: {parallelism: {zero_stage: 4}}\n",
     {},
     1,
     "model.parallelism.zero_stage: must be 0, 1, 2 or 3, got 4"},
    {"DataParallelZero",
     "model: {parallelism: {data: 0}}\n",
     {},
     1,
     "model.parallelism.data: must be -1 (derived from the rank count) or >= 1, got 0"},
    {"ZeroThreeWithPipeline",
     "model: {parallelism: {pipeline: 2, zero_stage: 3}}\n",
     {},
     2,
     "model.parallelism.zero_stage = 3 (w.yaml:1) with model.parallelism.pipeline = 2 (w.yaml:1): "
     "ZeRO stage 3 cannot be combined with pipeline parallelism"},
    {"FewerLayersThanStages",
     "model: {num_layers: 2, parallelism: {pipeline: 4}}\n",
     {},
     4,
     "model.num_layers = 2 (w.yaml:1) is fewer than model.parallelism.pipeline = 4 (w.yaml:1): "
     "every pipeline stage needs at least one layer"},
    {"DataParallelInDefaultMode",
     "model: {parallelism: {data: 4}}\n",
     {},
     1,
     "model.parallelism.data = 4 (w.yaml:1) is only allowed with checkpoint.mode: subset"},
    {"WorldNotAMultipleOfTpTimesPp",
     "model: {parallelism: {tensor: 4, pipeline: 2}}\nworkflow: {checkpoint: true}\n",
     {},
     12,
     "the rank count 12 is not a multiple of model.parallelism.tensor = 4 (w.yaml:1) x "
     "model.parallelism.pipeline = 2 (w.yaml:1) = 8; run with a multiple of 8 ranks (`config "
     "show`, `config query` and `checkpoint plan` take --ranks 8)"},
    {"SubsetWithoutData",
     "checkpoint: {mode: subset}\n",
     {},
     1,
     "checkpoint.mode: subset (w.yaml:1) requires model.parallelism.data >= 1"},
    {"SubsetSmallerThanTheRun",
     "checkpoint: {mode: subset}\nmodel: {parallelism: {data: 1, tensor: 2}}\n"
     "workflow: {checkpoint: true}\n",
     {},
     4,
     "is smaller than this run's 4 ranks"},
    {"NegativeModelSize",
     "model: {model_size_bytes: -1}\n",
     {},
     1,
     "model.model_size_bytes: must be >= 0, got -1"},
    {"ZeroOptimizationGroup",
     "model: {optimization_groups: [5, 0]}\n",
     {},
     1,
     "model.optimization_groups: every element must be >= 1, got 0 at index 1"},
    {"ZeroLayerParameters",
     "model: {layer_parameters: [-5]}\n",
     {},
     1,
     "model.layer_parameters: every element must be >= 1"},
    {"TransformerWithoutHeads",
     "model: {type: transformer, transformer: {num_kv_heads: 0}}\n",
     {},
     1,
     "model.transformer.num_kv_heads: must be >= 1, got 0"},
    // reader
    {"TfrecordWithPytorchLoader",
     "framework: pytorch\nreader: {data_loader: pytorch}\ndataset: {format: tfrecord}\n",
     {},
     1,
     "dataset.format = tfrecord (w.yaml:3) with reader.data_loader = pytorch (w.yaml:2): the "
     "pytorch loader cannot read TFRecord files"},
    {"TensorflowWithPytorchLoader",
     "reader: {data_loader: pytorch}\ndataset: {format: npz}\n",
     {},
     1,
     "framework = tensorflow (the default) with reader.data_loader = pytorch (w.yaml:1): the data "
     "loader must belong to the framework"},
    {"PytorchWithTensorflowLoader",
     "framework: pytorch\n",
     {},
     1,
     "framework = pytorch (w.yaml:1) with reader.data_loader = tensorflow (the default): the data "
     "loader must belong to the framework"},
    {"BatchBelowOne",
     "reader: {batch_size: 0}\n",
     {},
     1,
     "reader.batch_size: must be >= 1, got 0 (w.yaml:1)"},
    {"EvalBatchBelowOne",
     "reader: {batch_size_eval: 0}\n",
     {},
     1,
     "reader.batch_size_eval: must be >= 1, got 0"},
    {"NegativeReadThreads",
     "reader: {read_threads: -1}\n",
     {},
     1,
     "reader.read_threads: must be >= 0, got -1"},
    {"NoComputationThreads",
     "reader: {computation_threads: 0}\n",
     {},
     1,
     "reader.computation_threads: must be >= 1, got 0"},
    {"NegativePrefetch",
     "reader: {prefetch_size: -1}\n",
     {},
     1,
     "reader.prefetch_size: must be >= 0, got -1"},
    {"NegativeShuffleSize",
     "reader: {shuffle_size: -1}\n",
     {},
     1,
     "reader.shuffle_size: must be >= 0, got -1"},
    {"ZeroTransferSize",
     "reader: {transfer_size: 0}\n",
     {},
     1,
     "reader.transfer_size: must be > 0"},
    {"ZeroTransformedDim",
     "reader: {transformed_record_dims: [0]}\n",
     {},
     1,
     "reader.transformed_record_dims: every element must be >= 1"},
    {"UnknownTransformedType",
     "reader: {transformed_record_element_type: pixel}\n",
     {},
     1,
     "reader.transformed_record_element_type: 'pixel' is not an element type"},
    {"OdirectWithHdf5",
     "reader: {odirect: true}\ndataset: {format: hdf5}\n",
     {},
     1,
     "reader.odirect = true (w.yaml:1) with dataset.format = hdf5 (w.yaml:2): O_DIRECT reading "
     "exists only for npz, npy, indexed_binary, csv, jpeg, png and parquet"},
    {"OdirectWithTfrecord",
     "reader: {odirect: true}\n",
     {},
     1,
     "with dataset.format = tfrecord (the default): O_DIRECT reading exists only for npz, npy, "
     "indexed_binary, csv, jpeg, png and parquet"},
    {"OdirectWithMmapIndexedBinary",  // its reads are page faults: O_DIRECT has no meaning
     "reader: {odirect: true}\ndataset: {format: mmap_indexed_binary}\n",
     {},
     1,
     "with dataset.format = mmap_indexed_binary (w.yaml:2): O_DIRECT reading exists only for "
     "npz, npy, indexed_binary, csv, jpeg, png and parquet"},
    // steps
    {"NoStepPerEpoch",
     "dataset: {num_files_train: 16, num_samples_per_file: 2}\n"
     "reader: {batch_size: 16}\n",
     {},
     4,
     "no training step per epoch: 32 training samples (dataset.num_files_train = 16 (w.yaml:1) x "
     "dataset.num_samples_per_file = 2 (w.yaml:1)) are fewer than one step needs "
     "(reader.batch_size = 16 (w.yaml:2) x 4 ranks = 64)"},
    {"TotalTrainingStepsAboveAnEpoch",
     "train: {total_training_steps: 9}\n",
     {},
     1,
     "train.total_training_steps = 9 (w.yaml:1) exceeds the steps of an epoch: at most 8"},
    {"TotalTrainingStepsAboveAnEpochSaysWhatToSet",
     "train: {total_training_steps: 9}\n",
     {},
     1,
     "as in DLIO it caps each epoch: set it to at most 8 "
     "(++workload.train.total_training_steps=8) or -1 for no cap, or add files"},
    {"NoEvaluationStep",
     "workflow: {evaluation: true}\ndataset: {num_files_eval: 2}\nreader: {batch_size_eval: 3}\n",
     {},
     1,
     "no evaluation step: 2 evaluation samples (dataset.num_files_eval = 2 (w.yaml:2) x "
     "num_samples_per_file 1) are fewer than one step needs (reader.batch_size_eval = 3 "
     "(w.yaml:3) x 1 ranks = 3); lower the eval batch size or the rank count, add evaluation "
     "files, or set workflow.evaluation: false"},
    // train, evaluation
    {"NoEpochs", "train: {epochs: 0}\n", {}, 1, "train.epochs: must be >= 1, got 0"},
    {"NegativeEvalAfterEpoch",
     "evaluation: {eval_after_epoch: -1}\n",
     {},
     1,
     "evaluation.eval_after_epoch: must be >= 0"},
    {"ZeroEpochsBetweenEvals",
     "evaluation: {epochs_between_evals: 0}\n",
     {},
     1,
     "evaluation.epochs_between_evals: must be >= 1"},
    // checkpoint
    {"EmptyCheckpointFolder",
     "checkpoint: {checkpoint_folder: ''}\n",
     {},
     1,
     "checkpoint.checkpoint_folder: must not be empty"},
    {"NegativeCheckpointAfterEpoch",
     "checkpoint: {checkpoint_after_epoch: -1}\n",
     {},
     1,
     "checkpoint.checkpoint_after_epoch: must be >= 0"},
    {"ZeroEpochsBetweenCheckpoints",
     "checkpoint: {epochs_between_checkpoints: 0}\n",
     {},
     1,
     "checkpoint.epochs_between_checkpoints: must be >= 1"},
    {"ZeroStepsBetweenCheckpoints",
     "checkpoint: {steps_between_checkpoints: 0}\n",
     {},
     1,
     "checkpoint.steps_between_checkpoints: 0 would never checkpoint (DLIO's behaviour); use "
     "k >= 1 to checkpoint every k steps, or -1 for epoch mode (w.yaml:1)"},
    {"InfiniteTimeBetweenCheckpoints",
     "checkpoint: {time_between_checkpoints: .inf}\n",
     {},
     1,
     "checkpoint.time_between_checkpoints: must be a finite number of seconds"},
    {"ReadMoreThanWritten",
     "checkpoint: {num_checkpoints_write: 2, num_checkpoints_read: 3}\n",
     {},
     1,
     "checkpoint.num_checkpoints_read = 3 (w.yaml:1) exceeds checkpoint.num_checkpoints_write = "
     "2 (w.yaml:1): only written checkpoints can be read back"},
    {"KsmWithRandomTensors",
     "checkpoint: {ksm: {}}\n",
     {},
     1,
     "checkpoint.ksm (w.yaml:1) requires checkpoint.randomize_tensor: false"},
    {"NoWriteThreads",
     "checkpoint: {write_threads: 0}\n",
     {},
     1,
     "checkpoint.write_threads: must be >= 1, got 0"},
    // output, metric
    {"NegativeExcludeStart",
     "output: {metric: {exclude_start_steps: -1}}\n",
     {},
     1,
     "output.metric.exclude_start_steps: must be >= 0, got -1"},
    {"NegativeExcludeEnd",
     "output: {metric: {exclude_end_steps: -1}}\n",
     {},
     1,
     "output.metric.exclude_end_steps: must be >= 0, got -1"},
    {"EmptyLogFile", "output: {log_file: ''}\n", {}, 1, "output.log_file: must not be empty"},
    {"EmptyOutputFolder",
     "{}\n",
     {"hydra.run.dir="},
     1,
     "output.folder: must not be empty; leave it out for output/<model.name>/<time>/ (override "
     "hydra.run.dir=)"},
    {"AuAboveOne",
     "metric: {au: 90}\n",
     {},
     1,
     "metric.au: must be in (0, 1], got 90.0 (w.yaml:1)"},
    {"AuZero", "metric: {au: 0}\n", {}, 1, "metric.au: must be in (0, 1], got 0.0"},
};

INSTANTIATE_TEST_SUITE_P(Rules, ValidationRule, ::testing::ValuesIn(kRules),
                         [](const auto& rule_info) { return std::string(rule_info.param.name); });

TEST(Validation, ValidCombinationsPass) {
  // Each of these sits next to a rejected case above.
  EXPECT_NO_THROW(LoadText("dataset: {format: hdf5, compression: gzip}\n"));
  EXPECT_NO_THROW(LoadText("dataset: {format: npz, compression: zip}\n"));
  EXPECT_NO_THROW(LoadText("reader: {odirect: true}\ndataset: {format: npz}\n"));
  EXPECT_NO_THROW(LoadText("reader: {odirect: true}\ndataset: {format: npy}\n"));
  EXPECT_NO_THROW(LoadText("reader: {odirect: true}\ndataset: {format: indexed_binary}\n"));
  EXPECT_NO_THROW(
      LoadText("reader: {odirect: true}\ndataset: {format: jpeg, "
               "num_samples_per_file: 1}\n"));
  EXPECT_NO_THROW(LoadText("dataset: {format: csv, compression: gzip}\n"));
  EXPECT_NO_THROW(LoadText("dataset: {format: parquet, compression: snappy}\n"));
  EXPECT_NO_THROW(
      LoadText("dataset: {format: parquet, compression: zstd, compression_level: 22}\n"));
  EXPECT_NO_THROW(LoadText("dataset: {format: png, num_samples_per_file: 1}\n"));
  EXPECT_NO_THROW(LoadText(
      "dataset: {format: jpeg, num_samples_per_file: 1, content: {encoding: assembled}}\n"));
  EXPECT_NO_THROW(LoadText(
      "dataset: {format: png, num_samples_per_file: 1, content: {encoding: assembled}}\n"));
  EXPECT_NO_THROW(LoadText("dataset: {format: csv, content: {encoding: assembled}}\n"));
  // csv pieces are formatted from the content generator, of any kind.
  EXPECT_NO_THROW(LoadText(
      "dataset: {format: csv, compression: gzip, content: {kind: zeros, encoding: assembled}}\n"));
  EXPECT_NO_THROW(LoadText("checkpoint: {ksm: {}, randomize_tensor: false}\n"));
  EXPECT_NO_THROW(LoadText("checkpoint: {num_checkpoints_write: -1, num_checkpoints_read: 3}\n"));
  EXPECT_NO_THROW(
      LoadText("model: {parallelism: {tensor: 4, pipeline: 2}}\n"
               "dataset: {num_files_train: 16}\n",
               {}, 16));
  EXPECT_NO_THROW(
      LoadText("checkpoint: {mode: subset}\nmodel: {parallelism: {data: 2, tensor: 2}}\n", {}, 4));
  EXPECT_NO_THROW(LoadText("model: {parallelism: {pipeline: 2, zero_stage: 2}}\n", {}, 2));
  EXPECT_NO_THROW(LoadText("dataset: {num_files_train: 4, num_subfolders_train: 4}\n"));
  EXPECT_NO_THROW(LoadText("train: {total_training_steps: 8}\n"));
  EXPECT_NO_THROW(LoadText("dataset: {record_dims: [6, 4], hdf5: {num_dset_per_record: 3}}\n"));
  EXPECT_NO_THROW(LoadText("checkpoint: {time_between_checkpoints: -1}\n"));
  EXPECT_NO_THROW(LoadText("metric: {au: 1}\n"));
  // The loader only matters when data is read (checkpoint-only pytorch workloads).
  EXPECT_NO_THROW(LoadText(std::string("framework: pytorch\n") + kCheckpointOnly));
  EXPECT_NO_THROW(LoadText(std::string("dataset: {num_files_train: 0}\n") + kCheckpointOnly));
}

TEST(Validation, NoticesInsteadOfErrors) {
  auto result = LoadText("storage: {storage_type: parallel_fs}\n");
  ASSERT_EQ(result.notices.size(), 1u);
  EXPECT_NE(result.notices[0].find("parallel_fs (w.yaml:1) is POSIX I/O in dlbench"),
            std::string::npos);
  result = LoadText("workflow: {profiling: true}\nprofiling: {profiler: darshan}\n");
  ASSERT_EQ(result.notices.size(), 1u);
  EXPECT_NE(result.notices[0].find("profiling.profiler: darshan (w.yaml:2) is not started"),
            std::string::npos);
  // DLIO's default profiler (iostat) is not a request: --trace alone gives no notice.
  EXPECT_TRUE(LoadText("workflow: {profiling: true}\n").notices.empty());
}

TEST(Validation, MoreReadThreadsThanCoresIsOnlyANotice) {
  const auto result = LoadText("reader: {read_threads: 100000}\n");
  ASSERT_EQ(result.notices.size(), 1u);
  EXPECT_NE(result.notices[0].find("reader.read_threads: 100000 (w.yaml:1) is more than the"),
            std::string::npos)
      << result.notices[0];
}

// Under `mpirun -np 1` (bound to one core) the notice said "the 1 cores".
TEST(Validation, MoreReadThreadsThanOneCoreSaysCore) {
  cpu_set_t saved;
  ASSERT_EQ(sched_getaffinity(0, sizeof(saved), &saved), 0);
  cpu_set_t one;
  CPU_ZERO(&one);
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (CPU_ISSET(cpu, &saved)) {
      CPU_SET(cpu, &one);
      break;
    }
  }
  ASSERT_EQ(sched_setaffinity(0, sizeof(one), &one), 0);
  const auto result = LoadText("reader: {read_threads: 2}\n");
  ASSERT_EQ(sched_setaffinity(0, sizeof(saved), &saved), 0);
  ASSERT_EQ(result.notices.size(), 1u);
  EXPECT_NE(result.notices[0].find("is more than the 1 core this process may run on"),
            std::string::npos)
      << result.notices[0];
}

// Only where reader threads start: a checkpoint plan or a generation printed it too.
TEST(Validation, MoreReadThreadsThanCoresIsNotedOnlyWhenTraining) {
  for (const Phase phase : {Phase::kCheckpoint, Phase::kGenerate}) {
    EXPECT_TRUE(LoadText("reader: {read_threads: 100000}\n", {}, 1, false, phase).notices.empty());
  }
}

TEST(Validation, ImagesAreForcedToUint8) {
  const auto result = LoadText("dataset: {format: png, record_element_type: float32}\n");
  EXPECT_EQ(result.config.dataset.record_element_type, "uint8");
  ASSERT_EQ(result.notices.size(), 1u);
  EXPECT_NE(result.notices[0].find("replaced by uint8"), std::string::npos);
}

// Ranks are split into tensor x pipeline groups only to write checkpoints: generating or reading
// the dataset of a TP 4 x PP 8 workload on fewer ranks is allowed (it was refused before), and
// the rule holds as soon as checkpoints are written, in training or alone.
TEST(Validation, RankCountRulesHoldOnlyWhereCheckpointsAreWritten) {
  const std::string tp_pp = "model: {parallelism: {tensor: 4, pipeline: 8}}\n";
  EXPECT_NO_THROW(
      LoadText(tp_pp + "workflow: {checkpoint: true}\n", {}, 1, false, Phase::kGenerate));
  EXPECT_NO_THROW(LoadText(tp_pp + "workflow: {generate_data: true, train: true}\n", {}, 3));
  EXPECT_NO_THROW(LoadText("checkpoint: {mode: subset}\nmodel: {parallelism: {data: 1}}\n", {}, 4,
                           false, Phase::kGenerate));
  for (const auto& [workflow, forced] :
       {std::pair{"workflow: {train: true, checkpoint: true}\n", std::optional<Phase>()},
        std::pair{"workflow: {train: true, checkpoint: true}\n", std::optional(Phase::kTrain)},
        std::pair{"workflow: {train: false}\n", std::optional(Phase::kCheckpoint)}}) {
    EXPECT_NE(UsageMessage([&] {
                LoadText(tp_pp + workflow, {}, 3, false, forced);
              }).find("the rank count 3 is not a multiple of"),
              std::string::npos)
        << workflow;
  }
}

TEST(Validation, WorldSizeMustBePositive) {
  EXPECT_NE(UsageMessage([] { LoadText("{}", {}, 0); }).find("rank count must be >= 1"),
            std::string::npos);
}

}  // namespace
}  // namespace dlbench::config
