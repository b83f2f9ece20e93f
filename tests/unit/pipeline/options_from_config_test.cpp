#include "pipeline/options_from_config.h"

#include <gtest/gtest.h>

#include "support/expect_error.h"
#include "util/error.h"

namespace dlbench::pipeline {
namespace {

config::Config Unet3dLike() {
  config::Config c;
  c.framework = config::Framework::kPytorch;
  c.reader.data_loader = config::DataLoader::kPytorch;
  c.dataset.format = config::Format::kNpz;
  c.dataset.num_files_train = 168;
  c.dataset.num_files_eval = 10;
  c.dataset.num_samples_per_file = 1;
  c.dataset.record_length_bytes = 146600628;
  c.reader.batch_size = 7;
  c.reader.batch_size_eval = 2;
  c.reader.read_threads = 4;
  c.reader.prefetch_size = 3;
  c.reader.file_shuffle = config::Shuffle::kSeed;
  c.reader.sample_shuffle = config::Shuffle::kRandom;
  c.train.epochs = 5;
  c.train.seed = 99;
  c.train.computation_time.mean = 0.323;
  c.workflow.evaluation = true;
  c.evaluation.eval_after_epoch = 2;
  return c;
}

TEST(OptionsFromConfig, TrainAndEvalSamplers) {
  const config::Config c = Unet3dLike();
  const SamplerOptions train = TrainSamplerOptions(c, 5, 3, 42);
  EXPECT_EQ(train.files, 168u);
  EXPECT_EQ(train.batch_size, 7u);
  EXPECT_EQ(train.rank, 3);
  EXPECT_EQ(train.ranks, 5);
  EXPECT_EQ(train.seed, 99);
  EXPECT_EQ(train.random_seed, 42u);
  EXPECT_EQ(train.file_shuffle, config::Shuffle::kSeed);
  EXPECT_EQ(train.sample_shuffle, config::Shuffle::kRandom);
  EXPECT_EQ(train.order, SampleOrder::kIndex);
  // unet3d, batch 7, P = 5: 168 samples → 33 per rank → 4 steps (DLIO trims to 140 files).
  EXPECT_EQ(Sampler(train).steps_per_epoch(), 4u);
  const SamplerOptions eval = EvalSamplerOptions(c, 5, 3, 42);
  EXPECT_EQ(eval.files, 10u);
  EXPECT_EQ(eval.batch_size, 2u);
  EXPECT_EQ(eval.files_key, "dataset.num_files_eval");
  EXPECT_EQ(Sampler(eval).steps_per_epoch(), 1u);
}

TEST(OptionsFromConfig, TfrecordOnTheTensorflowLoaderStreamsFiles) {
  config::Config c;
  c.dataset.format = config::Format::kTfrecord;
  EXPECT_EQ(OrderFor(c), SampleOrder::kFileMajor);
  c.dataset.format = config::Format::kHdf5;
  EXPECT_EQ(OrderFor(c), SampleOrder::kIndex);
}

// A streamed TFRecord file stays open while its records are consumed, whatever read_type says;
// reading by index honours read_type.
TEST(OptionsFromConfig, StreamedFilesStayOpen) {
  config::Config c;
  c.reader.read_type = config::ReadType::kOnDemand;
  c.dataset.format = config::Format::kTfrecord;
  EXPECT_EQ(ReaderPoolOptionsFrom(c, 0).read_type, config::ReadType::kMemory);
  c.dataset.format = config::Format::kNpz;
  EXPECT_EQ(ReaderPoolOptionsFrom(c, 0).read_type, config::ReadType::kOnDemand);
  c.reader.read_type = config::ReadType::kMemory;
  EXPECT_EQ(ReaderPoolOptionsFrom(c, 0).read_type, config::ReadType::kMemory);
}

TEST(OptionsFromConfig, TrainerAndReader) {
  const config::Config c = Unet3dLike();
  const TrainerOptions t = TrainerOptionsFrom(c, 2, 1.5);
  EXPECT_EQ(t.epochs, 5);
  EXPECT_EQ(t.computation_time.mean, 0.323);
  EXPECT_TRUE(t.evaluation);
  EXPECT_EQ(t.eval_after_epoch, 2);
  EXPECT_EQ(t.nominal_sample_bytes, 146600628u);
  EXPECT_EQ(t.origin, 1.5);
  EXPECT_EQ(t.reader.threads, 4);
  EXPECT_EQ(t.reader.prefetch, 3);
  EXPECT_EQ(t.reader.queue_capacity(), 4u);
  EXPECT_EQ(t.reader.rank, 2);
  config::Config no_eval_files = c;
  no_eval_files.dataset.num_files_eval = 0;
  EXPECT_FALSE(TrainerOptionsFrom(no_eval_files, 0, 0).evaluation);
}

TEST(OptionsFromConfig, FileReads) {
  config::Config c = Unet3dLike();
  EXPECT_EQ(FileReadOptionsFrom(c).transfer_size, formats::FileReadOptions{}.transfer_size);
  c.reader.transfer_size = 64 * KiB;
  c.reader.verify_checksums = false;
  c.reader.odirect = true;
  const formats::FileReadOptions o = FileReadOptionsFrom(c);
  EXPECT_EQ(o.transfer_size, 64 * KiB);
  EXPECT_FALSE(o.verify_checksums);
  EXPECT_TRUE(o.direct);
}

TEST(OptionsFromConfig, StepCapAboveTheAvailableStepsIsAUsageError) {
  config::Config c = Unet3dLike();
  c.train.total_training_steps = 5;
  dlbench::test::ExpectError([&] { Sampler{TrainSamplerOptions(c, 5, 0, 0)}; }, ExitCode::kUsage,
                             {"at most 4"});
}

TEST(OptionsFromConfig, RunSeedsDiffer) {
  // Two 64-bit draws from random_device colliding would be a broken random_device.
  EXPECT_NE(DrawRunSeed(), DrawRunSeed());
}

}  // namespace
}  // namespace dlbench::pipeline
