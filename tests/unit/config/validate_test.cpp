// Every validation rule on values (reference §6.1, §6.2; config/validate.cpp): a document that
// breaks it, and the message. The rules on tiers, the burst buffer, staging and folders, and the
// phases a command forces, are in storage_rules_test.cpp. Each case loads a small valid base plus
// one change, so the rule under test is the only one broken; UsageMessage also checks the exit
// code (kUsage).
#include <gtest/gtest.h>

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
     "model: {parallelism: {tensor: 4, pipeline: 2}}\n",
     {},
     12,
     "the rank count 12 is not a multiple of model.parallelism.tensor = 4 (w.yaml:1) x "
     "model.parallelism.pipeline = 2 (w.yaml:1) = 8; run with a multiple of 8 ranks"},
    {"SubsetWithoutData",
     "checkpoint: {mode: subset}\n",
     {},
     1,
     "checkpoint.mode: subset (w.yaml:1) requires model.parallelism.data >= 1"},
    {"SubsetSmallerThanTheRun",
     "checkpoint: {mode: subset}\nmodel: {parallelism: {data: 1, tensor: 2}}\n",
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
    // dataset
    {"EmptyDataFolder",
     "dataset: {data_folder: ''}\n",
     {},
     1,
     "dataset.data_folder: must not be empty"},
    {"PrefixWithSlash",
     "dataset: {file_prefix: a/b}\n",
     {},
     1,
     "dataset.file_prefix: must be a non-empty file name prefix without '/'"},
    {"NegativeFileCount",
     kCheckpointOnly,
     {"++dataset.num_files_train=-1"},
     1,
     "dataset.num_files_train: must be >= 0, got -1 (override ++dataset.num_files_train=-1)"},
    {"NoTrainingFiles",
     "dataset: {num_files_train: 0}\n",
     {},
     1,
     "dataset.num_files_train: must be >= 1 when training or generating data, got 0"},
    {"NoGenerationFiles",
     "workflow: {train: false, generate_data: true}\n",
     {"++dataset.num_files_train=0"},
     1,
     "must be >= 1 when training or generating data"},
    {"EvaluationWithoutFiles",
     "workflow: {evaluation: true}\n",
     {},
     1,
     "workflow.evaluation: true (w.yaml:1) needs evaluation files, but "
     "dataset.num_files_eval = 0"},
    {"NoSamplesPerFile",
     "dataset: {num_samples_per_file: 0}\n",
     {},
     1,
     "dataset.num_samples_per_file: must be >= 1, got 0"},
    {"NegativeSubfolders",
     "dataset: {num_subfolders_train: -1}\n",
     {},
     1,
     "dataset.num_subfolders_train: must be >= 0"},
    {"MoreSubfoldersThanFiles",
     "dataset: {num_files_train: 4, num_subfolders_train: 5}\n",
     {},
     1,
     "dataset.num_subfolders_train = 5 (w.yaml:1) exceeds dataset.num_files_train = 4 "
     "(w.yaml:1): every subfolder needs a file"},
    {"MoreEvalSubfoldersThanFiles",
     "dataset: {num_files_eval: 2, num_subfolders_eval: 3}\n",
     {},
     1,
     "dataset.num_subfolders_eval = 3 (w.yaml:1) exceeds dataset.num_files_eval = 2"},
    {"ZeroRecordLength",
     "dataset: {record_length_bytes: 0}\n",
     {},
     1,
     "dataset.record_length_bytes: must be a finite number > 0, got 0.0"},
    {"ZeroRecordDim",
     "dataset: {record_dims: [4, 0]}\n",
     {},
     1,
     "dataset.record_dims: every element must be >= 1, got 0 at index 1"},
    {"RecordDimsWithStdev",
     "dataset: {record_dims: [4, 4], record_length_bytes_stdev: 2}\n",
     {},
     1,
     "dataset.record_dims = [4, 4] (w.yaml:1) with dataset.record_length_bytes_stdev = 2.0 "
     "(w.yaml:1): an explicit sample shape cannot vary in size"},
    {"RecordDimsNotDivisible",
     "dataset: {record_dims: [5, 4], hdf5: {num_dset_per_record: 2}}\n",
     {},
     1,
     "dataset.record_dims = [5, 4] (w.yaml:1): the first dimension must be a multiple of "
     "dataset.hdf5.num_dset_per_record = 2 (w.yaml:1)"},
    {"ImageWithThreeDims",
     "dataset: {format: jpeg, record_dims: [4, 4, 3]}\n",
     {},
     1,
     "images are generated from at most 2 dimensions"},
    {"NegativeStdev",
     "dataset: {record_length_bytes_stdev: -1}\n",
     {},
     1,
     "dataset.record_length_bytes_stdev: must be a finite number >= 0"},
    {"NegativeResize",
     "dataset: {record_length_bytes_resize: -4}\n",
     {},
     1,
     "dataset.record_length_bytes_resize: must be >= 0, got -4"},
    {"UnknownElementType",
     "dataset: {record_element_type: float128}\n",
     {},
     1,
     "dataset.record_element_type: 'float128' is not an element type; use bool, int8"},
    {"ZeroDatasetsPerRecord",
     "dataset: {hdf5: {num_dset_per_record: 0}}\n",
     {},
     1,
     "dataset.hdf5.num_dset_per_record: must be >= 1, got 0"},
    {"ZeroChunkDim",
     "dataset: {hdf5: {chunk_dims: [0]}}\n",
     {},
     1,
     "dataset.hdf5.chunk_dims: every element must be >= 1"},
    {"ZeroMaxShape",
     "dataset: {hdf5: {max_shape: [0]}}\n",
     {},
     1,
     "dataset.hdf5.max_shape: every element must be >= 1"},
    {"NegativeChunkSize", "dataset: {chunk_size: -1}\n", {}, 1, "dataset.chunk_size: must be >= 0"},
    {"LzfWithHdf5",
     "dataset: {format: hdf5, compression: lzf}\n",
     {},
     1,
     "dataset.compression = lzf (w.yaml:1) with dataset.format = hdf5 (w.yaml:1): lzf is the "
     "h5py-only filter 32000, not available to the HDF5 C library; use gzip"},
    {"Bz2WithHdf5",
     "dataset: {format: hdf5, compression: bz2}\n",
     {},
     1,
     "hdf5 files support only gzip compression"},
    {"GzipWithNpz",
     "dataset: {format: npz, compression: gzip}\n",
     {},
     1,
     "dataset.compression = gzip (w.yaml:1) with dataset.format = npz (w.yaml:1): npz files "
     "support only zip compression"},
    {"LzfWithNpz",
     "dataset: {format: npz, compression: lzf}\n",
     {},
     1,
     "npz files support only zip compression"},
    {"ParquetZip",
     "dataset: {format: parquet, compression: zip}\n",
     {},
     1,
     "dataset.compression = zip (w.yaml:1) with dataset.format = parquet (w.yaml:1): parquet "
     "files support none, snappy, gzip or zstd compression"},
    {"ParquetLz4",
     "dataset: {format: parquet, compression: lz4}\n",
     {},
     1,
     "dataset.compression = lz4 (w.yaml:1) with dataset.format = parquet (w.yaml:1): parquet "
     "files support none, snappy, gzip or zstd compression"},
    {"ParquetZstdLevel",
     "dataset: {format: parquet, compression: zstd, compression_level: 23}\n",
     {},
     1,
     "dataset.compression_level: zstd levels are 1 to 22, got 23"},
    {"ParquetStringColumn",
     "dataset: {format: parquet, parquet: {columns: [{name: s, dtype: string}]}}\n",
     {},
     1,
     "dataset.parquet.columns: column 0 ('s') has dtype 'string'; dlbench's Parquet columns hold"},
    {"ParquetRepeatedColumn",
     "dataset: {format: parquet, parquet: {columns: [{name: a, size: 2}, {name: a}]}}\n",
     {},
     1,
     "column 1 ('a') repeats a name"},
    {"ParquetColumnSizeZero",
     "dataset: {format: parquet, parquet: {columns: [{name: a, size: 0}]}}\n",
     {},
     1,
     "column 0 ('a') has size 0; must be >= 1"},
    {"ParquetNothingRead",
     "dataset: {format: parquet, parquet: {columns: [{name: a, read: false}]}}\n",
     {},
     1,
     "every column has read: false"},
    {"ParquetColumnUnknownKey",
     "dataset: {format: parquet, parquet: {columns: [{name: a, dtyp: int8}]}}\n",
     {},
     1,
     "dataset.parquet.columns[0].dtyp: unknown key"},
    {"ParquetPartitioned",
     "dataset: {format: parquet, parquet: {partition_by: day}}\n",
     {},
     1,
     "dataset.parquet.partition_by: Hive-partitioned Parquet datasets are not supported"},
    {"ParquetRowGroupZero",
     "dataset: {format: parquet, parquet: {row_group_size: 0}}\n",
     {},
     1,
     "dataset.parquet.row_group_size: must be >= 1, got 0"},
    {"CompressionWithTfrecord",
     "dataset: {compression: gzip}\n",
     {},
     1,
     "dataset.compression = gzip (w.yaml:1) with dataset.format = tfrecord: compression applies "
     "only to hdf5 (gzip), parquet (snappy, gzip, zstd), npz (zip) and csv (gzip) datasets"},
    {"CsvWithXz",
     "dataset: {format: csv, compression: xz}\n",
     {},
     1,
     "dataset.compression = xz (w.yaml:1) with dataset.format = csv (w.yaml:1): csv files support "
     "only gzip compression (written as .csv.gz)"},
    {"CsvGzipLevel",
     "dataset: {format: csv, compression: gzip, compression_level: -1}\n",
     {},
     1,
     "dataset.compression_level: gzip levels are 0 to 9, got -1"},
    {"CsvOfFloat16",
     "dataset: {format: csv, record_element_type: float16}\n",
     {},
     1,
     "dataset.record_element_type = 'float16' (w.yaml:1) with dataset.format = csv (w.yaml:1): csv "
     "files hold integers, float32 or float64"},
    {"ImageWithTwoSamplesPerFile",
     "dataset: {format: jpeg, num_samples_per_file: 2}\n",
     {},
     1,
     "dataset.num_samples_per_file = 2 (w.yaml:1) with dataset.format = jpeg (w.yaml:1): an image "
     "file holds one sample (DLIO too writes one image per file); set num_samples_per_file to 1"},
    {"NpzZipLevel",
     "dataset: {format: npz, compression: zip, compression_level: 12}\n",
     {},
     1,
     "dataset.compression_level: zip (deflate) levels are 0 to 9, got 12 (w.yaml:1)"},
    {"GzipLevel",
     "dataset: {format: hdf5, compression: gzip, compression_level: 10}\n",
     {},
     1,
     "dataset.compression_level: gzip levels are 0 to 9, got 10"},
    {"ZeroGenerationBuffer",
     "dataset: {generation_buffer_size: 0}\n",
     {},
     1,
     "dataset.generation_buffer_size: must be > 0"},
    {"NoGenerationThreads",
     "dataset: {generation_threads: 0}\n",
     {},
     1,
     "dataset.generation_threads: must be >= 1, got 0"},
    {"CompressRatioBelowOne",
     "dataset: {content: {kind: compressible, compress_ratio: 0.5}}\n",
     {},
     1,
     "dataset.content.compress_ratio: must be >= 1 (raw size / compressed size), got 0.5"},
    {"AssembledCsv",
     "dataset: {format: csv, content: {encoding: assembled}}\n",
     {},
     1,
     "dataset.content.encoding = assembled (w.yaml:1) with dataset.format = csv (w.yaml:1): only "
     "jpeg and png files can be assembled; use per_file"},
    {"AssembledZeros",
     "dataset:\n  format: jpeg\n  num_samples_per_file: 1\n  content: {kind: zeros, encoding: "
     "assembled}\n",
     {},
     1,
     "dataset.content.encoding = assembled (w.yaml:4) with dataset.content.kind = zeros "
     "(w.yaml:4): "
     "assembled images are noise; use kind random or encoding per_file"},
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
     "framework = tensorflow with reader.data_loader = pytorch (w.yaml:1): the data loader must "
     "belong to the framework"},
    {"PytorchWithTensorflowLoader",
     "framework: pytorch\n",
     {},
     1,
     "framework = pytorch (w.yaml:1) with reader.data_loader = tensorflow: the data loader must "
     "belong to the framework"},
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
     "with dataset.format = tfrecord: O_DIRECT reading exists only for npz, npy, "
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
    {"NoEvaluationStep",
     "workflow: {evaluation: true}\ndataset: {num_files_eval: 2}\nreader: {batch_size_eval: 3}\n",
     {},
     1,
     "no evaluation step: 2 evaluation samples (dataset.num_files_eval = 2 (w.yaml:2) x "
     "num_samples_per_file 1) are fewer than one step needs (reader.batch_size_eval = 3 "
     "(w.yaml:3) x 1 ranks = 3)"},
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

TEST(Validation, ImagesAreForcedToUint8) {
  const auto result = LoadText("dataset: {format: png, record_element_type: float32}\n");
  EXPECT_EQ(result.config.dataset.record_element_type, "uint8");
  ASSERT_EQ(result.notices.size(), 1u);
  EXPECT_NE(result.notices[0].find("replaced by uint8"), std::string::npos);
}

TEST(Validation, WorldSizeMustBePositive) {
  EXPECT_NE(UsageMessage([] { LoadText("{}", {}, 0); }).find("rank count must be >= 1"),
            std::string::npos);
}

}  // namespace
}  // namespace dlbench::config
