// MLPerf Storage's dataset-size rule against the sizes MLPerf's own tool printed for published
// submissions (storage_results_v1.0, `benchmark.sh datasize` lines in the submitters' scripts),
// with each workload's record size, samples per file and batch size as the workloads/ files give.
#include "dataset/mlperf_dataset_size.h"

#include <gtest/gtest.h>

#include "support/expect_error.h"

namespace dlbench::dataset {
namespace {

config::Config Workload(config::Format format, double record_bytes, std::int64_t per_file,
                        std::int64_t batch) {
  config::Config config;
  config.dataset.format = format;
  config.dataset.record_length_bytes = record_bytes;
  config.dataset.num_samples_per_file = per_file;
  config.reader.batch_size = batch;
  return config;
}

const config::Config kUnet3d = Workload(config::Format::kNpz, 146600628, 1, 7);
const config::Config kResnet50 = Workload(config::Format::kTfrecord, 114660.07, 1251, 400);
const config::Config kCosmoflow = Workload(config::Format::kTfrecord, 2828486, 1, 1);

TEST(MlperfDatasetSize, Unet3dOn36And48H100sIsSetBy500Steps) {
  // "Minimum 126000 files are required which will consume 17203 GB of storage".
  const MlperfDatasetSize size = ComputeMlperfDatasetSize(kUnet3d, {1, 36, 251});
  EXPECT_EQ(size.files_by_steps, 126000);
  EXPECT_EQ(size.files, 126000);
  EXPECT_LT(size.files_by_memory, size.files_by_steps);
  EXPECT_EQ(static_cast<long long>(size.total_bytes / (1024.0 * 1024 * 1024)), 17203);
  EXPECT_EQ(ComputeMlperfDatasetSize(kUnet3d, {1, 48, 251}).files, 168000);
}

TEST(MlperfDatasetSize, Resnet50On3HostsOf200H100s) {
  // "Minimum 95923 files are required which will consume 12814 GB of storage".
  const MlperfDatasetSize size = ComputeMlperfDatasetSize(kResnet50, {3, 200, 251});
  EXPECT_EQ(size.files, 95923);
  EXPECT_EQ(size.memory_bytes, 3ull * 251 * 1024 * 1024 * 1024);
  EXPECT_EQ(static_cast<long long>(size.total_bytes / (1024.0 * 1024 * 1024)), 12814);
}

TEST(MlperfDatasetSize, CosmoflowIsSetByMemoryRoundedUp) {
  // v1.0 printed 476419 (5 x 251 GiB / 2828486 B = 476419.6, rounded down); rule 3.1.2 rounds
  // up, as the reference says, since the rounded-down size is below 5x memory.
  const MlperfDatasetSize size = ComputeMlperfDatasetSize(kCosmoflow, {1, 60, 251});
  EXPECT_EQ(size.files_by_memory, 476420);
  EXPECT_EQ(size.files_by_steps, 30000);
  EXPECT_EQ(size.files, 476420);
  EXPECT_GE(size.total_bytes, 5.0 * 251 * 1024 * 1024 * 1024);
  EXPECT_LT(size.total_bytes - size.file_bytes, 5.0 * 251 * 1024 * 1024 * 1024);
}

TEST(MlperfDatasetSize, AnExactMultipleOfTheFileSizeIsNotRoundedUpFurther) {
  // 5 x 1 GiB in 1 MiB files: exactly 5120 files.
  EXPECT_EQ(ComputeMlperfDatasetSize(Workload(config::Format::kNpy, 1 << 20, 1, 1), {1, 1, 1})
                .files_by_memory,
            5120);
}

TEST(MlperfDatasetSize, ParquetRecordsAreTheSumOfTheirColumns) {
  // flux_b200: 524,328 + 409 + 8,232 + 8,232 + 7 float32 = 2,164,832 B, as MLPerf's file says.
  config::Config flux = Workload(config::Format::kParquet, 65536, 288, 48);
  flux.dataset.parquet.columns = {{"t5_encodings", "float32", 524328, true},
                                  {"clip_encodings", "float32", 409, true},
                                  {"mean", "float32", 8232, true},
                                  {"logvar", "float32", 8232, true},
                                  {"timestamp", "float32", 7, true}};
  EXPECT_EQ(MlperfRecordBytes(flux.dataset), 2164832);
  flux.dataset.parquet.columns = {{"a", "float64", 2, true},
                                  {"b", "int64", 1, true},
                                  {"c", "uint8", 3, true},
                                  {"d", "bool", 1, true},
                                  {"e", "int32", 1, true}};
  EXPECT_EQ(MlperfRecordBytes(flux.dataset), 2 * 8 + 8 + 3 + 1 + 4);
}

TEST(MlperfDatasetSize, BadClientHostsAreUsageErrors) {
  dlbench::test::ExpectError(
      [] {
        ComputeMlperfDatasetSize(kUnet3d, {0, 8, 64});
      },
      ExitCode::kUsage, {"--hosts must be at least 1, got 0"});
  dlbench::test::ExpectError(
      [] {
        ComputeMlperfDatasetSize(kUnet3d, {1, -2, 64});
      },
      ExitCode::kUsage, {"--accelerators-per-host must be at least 1"});
  dlbench::test::ExpectError(
      [] {
        ComputeMlperfDatasetSize(kUnet3d, {1, 8, 0});
      },
      ExitCode::kUsage, {"--host-memory-gib must be a positive"});
  dlbench::test::ExpectError(
      [] {
        ComputeMlperfDatasetSize(Workload(config::Format::kNpz, 0, 1, 1), {1, 1, 1});
      },
      ExitCode::kUsage, {"dataset.record_length_bytes"});
}

// Sizes beyond 64-bit counts: a file of 1e30 bytes (Parquet columns are not bounded by the
// sample-size rule) took the integer path and divided by 0 (SIGFPE); memory and steps that
// overflow are usage errors naming the flags.
TEST(MlperfDatasetSize, SizesBeyond64BitsDoNotWrapRound) {
  const MlperfDatasetSize huge =
      ComputeMlperfDatasetSize(Workload(config::Format::kNpz, 1e30, 1, 1), {1, 1, 64});
  EXPECT_EQ(huge.files_by_memory, 1);
  EXPECT_EQ(huge.files, 500);
  dlbench::test::ExpectError(
      [] {
        ComputeMlperfDatasetSize(kUnet3d, {2147483647, 8, 1e300});
      },
      ExitCode::kUsage, {"more memory than dlbench counts"});
  dlbench::test::ExpectError(
      [] {
        ComputeMlperfDatasetSize(Workload(config::Format::kNpz, 4096, 1, 4611686018427387904),
                                 {1, 1, 64});
      },
      ExitCode::kUsage, {"samples overflows 64 bits"});
}

TEST(MlperfDatasetSize, CheckpointOnlyWorkloadHasNoDatasetToSize) {
  config::Config checkpoint_only = kUnet3d;
  checkpoint_only.model.name = "llama_8b";
  checkpoint_only.workflow.train = false;
  checkpoint_only.workflow.checkpoint = true;
  dlbench::test::ExpectError(
      [&] {
        ComputeMlperfDatasetSize(checkpoint_only, {1, 8, 100});
      },
      ExitCode::kUsage, {"workload llama_8b reads and generates no dataset"});
  // A generate-only workload sizes the dataset it writes.
  config::Config generate_only = checkpoint_only;
  generate_only.workflow.generate_data = true;
  EXPECT_EQ(ComputeMlperfDatasetSize(generate_only, {1, 36, 251}).files, 126000);
}

}  // namespace
}  // namespace dlbench::dataset
