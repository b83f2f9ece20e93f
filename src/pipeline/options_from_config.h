// The pipeline's options resolved from the workload configuration, so that the workflow builds
// the sampler, reader pool and trainer in one line each and every key maps in one place.
#pragma once

#include <cstdint>

#include "config/config.h"
#include "formats/format.h"
#include "pipeline/reader_pool_options.h"
#include "pipeline/sampler.h"
#include "pipeline/trainer.h"

namespace dlbench::pipeline {

// A seed for Shuffle::kRandom, from std::random_device. Draw it on rank 0 only and broadcast
// it, so that every rank shuffles with the same permutation.
std::uint64_t DrawRunSeed();

// TFRecord read by the tensorflow (iterative) loader streams each file's records in order
// (SampleOrder::kFileMajor); everything else is read by index.
SampleOrder OrderFor(const config::Config& config);

// The training split: dataset.num_files_train × num_samples_per_file, reader.batch_size,
// train.total_training_steps as the per-epoch cap.
SamplerOptions TrainSamplerOptions(const config::Config& config, int ranks, Rank rank,
                                   std::uint64_t run_seed);
// The evaluation split: dataset.num_files_eval, reader.batch_size_eval, no cap.
SamplerOptions EvalSamplerOptions(const config::Config& config, int ranks, Rank rank,
                                  std::uint64_t run_seed);

// The reader section, in two parts: how the reader pool reads (threads, prefetch, read_type,
// on_error, ...) and how each file is read (transfer_size, verify_checksums, odirect).
ReaderPoolOptions ReaderPoolOptionsFrom(const config::Config& config, Rank rank);
formats::FileReadOptions FileReadOptionsFrom(const config::Config& config);

// `origin`: the synchronized time origin of the run (metrics/cross_rank.h).
TrainerOptions TrainerOptionsFrom(const config::Config& config, Rank rank, Seconds origin);

}  // namespace dlbench::pipeline
