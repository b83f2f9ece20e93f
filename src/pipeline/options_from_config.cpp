#include "pipeline/options_from_config.h"

#include <random>

namespace dlbench::pipeline {

std::uint64_t DrawRunSeed() {
  std::random_device device;
  return (static_cast<std::uint64_t>(device()) << 32) ^ device();
}

SampleOrder OrderFor(const config::Config& config) {
  return config.dataset.format == config::Format::kTfrecord &&
                 config.reader.sampler() == config::SamplerKind::kIterative
             ? SampleOrder::kFileMajor
             : SampleOrder::kIndex;
}

namespace {

SamplerOptions Common(const config::Config& config, int ranks, Rank rank, std::uint64_t run_seed) {
  SamplerOptions o;
  o.ranks = ranks;
  o.rank = rank;
  o.file_shuffle = config.reader.file_shuffle;
  o.sample_shuffle = config.reader.sample_shuffle;
  o.seed = config.train.seed;
  o.seed_change_epoch = config.train.seed_change_epoch;
  o.random_seed = run_seed;
  o.order = OrderFor(config);
  return o;
}

// Negative counts are rejected by config validation; clamp so a stray one reads as 0 (and the
// sampler then names the key) instead of wrapping to 2^64.
std::uint64_t Count(std::int64_t value) {
  return value < 0 ? 0 : static_cast<std::uint64_t>(value);
}

}  // namespace

SamplerOptions TrainSamplerOptions(const config::Config& config, int ranks, Rank rank,
                                   std::uint64_t run_seed) {
  SamplerOptions o = Common(config, ranks, rank, run_seed);
  o.files_key = "dataset.num_files_train";
  o.batch_key = "reader.batch_size";
  o.files = Count(config.dataset.num_files_train);
  o.samples_per_file = Count(config.dataset.num_samples_per_file);
  o.batch_size = Count(config.reader.batch_size);
  o.step_cap = config.train.total_training_steps;
  return o;
}

SamplerOptions EvalSamplerOptions(const config::Config& config, int ranks, Rank rank,
                                  std::uint64_t run_seed) {
  SamplerOptions o = Common(config, ranks, rank, run_seed);
  o.files_key = "dataset.num_files_eval";
  o.batch_key = "reader.batch_size_eval";
  o.files = Count(config.dataset.num_files_eval);
  o.samples_per_file = Count(config.dataset.num_samples_per_file);
  o.batch_size = Count(config.reader.batch_size_eval);
  o.step_cap = -1;
  return o;
}

ReaderPoolOptions ReaderPoolOptionsFrom(const config::Config& config, Rank rank) {
  ReaderPoolOptions o;
  o.threads = config.reader.read_threads;
  o.prefetch = config.reader.prefetch_size;
  // tf.data streams each TFRecord file whatever read_type says (as DLIO's TF reader does):
  // reopening the file for every record would re-read its prefix through the stream buffer,
  // O(records²) bytes for a shared file. So a streaming order keeps its files open.
  o.read_type = OrderFor(config) == SampleOrder::kFileMajor ? config::ReadType::kMemory
                                                            : config.reader.read_type;
  o.on_error = config.reader.on_error;
  o.thread_policy = config.reader.thread_policy;
  o.preprocess_time = config.reader.preprocess_time;
  o.seed = static_cast<std::uint64_t>(config.train.seed);
  o.rank = rank;
  return o;
}

formats::FileReadOptions FileReadOptionsFrom(const config::Config& config) {
  formats::FileReadOptions o;
  if (config.reader.transfer_size) o.transfer_size = *config.reader.transfer_size;
  o.verify_checksums = config.reader.verify_checksums;
  o.direct = config.reader.odirect;
  return o;
}

TrainerOptions TrainerOptionsFrom(const config::Config& config, Rank rank, Seconds origin) {
  TrainerOptions o;
  o.epochs = config.train.epochs;
  o.computation_time = config.train.computation_time;
  o.step_barrier = config.train.step_barrier;
  o.evaluation = config.workflow.evaluation && config.dataset.num_files_eval > 0;
  o.eval_time = config.evaluation.eval_time;
  o.eval_after_epoch = config.evaluation.eval_after_epoch;
  o.epochs_between_evals = config.evaluation.epochs_between_evals;
  o.seed = static_cast<std::uint64_t>(config.train.seed);
  o.rank = rank;
  // DLIO's nominal sample size; the honest bytes are StepRecord::read_bytes.
  o.nominal_sample_bytes = static_cast<Bytes>(config.dataset.record_length_bytes);
  o.origin = origin;
  o.reader = ReaderPoolOptionsFrom(config, rank);
  return o;
}

}  // namespace dlbench::pipeline
