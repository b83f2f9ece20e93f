#include "pipeline/sampler.h"

#include <limits>
#include <string>

#include "pipeline/seed.h"
#include "util/error.h"

namespace dlbench::pipeline {

namespace {

std::string Str(std::uint64_t v) { return std::to_string(v); }

}  // namespace

SampleRef EpochOrder::at(std::uint64_t position) const {
  const std::uint64_t g = shuffle_samples_ ? samples_(position) : position;
  const std::uint64_t block = g / samples_per_file_;
  return SampleRef{shuffle_files_ ? files_(block) : block, g % samples_per_file_};
}

Sampler::Sampler(const SamplerOptions& options) : options_(options) {
  const SamplerOptions& o = options_;
  if (o.files < 1) throw UsageError(o.files_key + " must be at least 1, got 0");
  if (o.samples_per_file < 1) throw UsageError("dataset.num_samples_per_file must be at least 1");
  if (o.batch_size < 1) throw UsageError(o.batch_key + " must be at least 1");
  if (o.ranks < 1 || o.rank < 0 || o.rank >= o.ranks) {
    throw Error(ExitCode::kInternal, "sampler: rank " + std::to_string(o.rank) + " outside [0, " +
                                         std::to_string(o.ranks) + ")");
  }
  if (o.files > std::numeric_limits<std::uint64_t>::max() / 4 / o.samples_per_file) {
    throw UsageError(o.files_key + " × dataset.num_samples_per_file = " + Str(o.files) + " × " +
                     Str(o.samples_per_file) + " overflows the sample index space");
  }
  const auto ranks = static_cast<std::uint64_t>(o.ranks);
  EpochShape& s = shape_;
  s.total_samples = o.files * o.samples_per_file;
  s.samples_per_rank = s.total_samples / ranks;
  s.available_steps = s.samples_per_rank / o.batch_size;
  if (s.available_steps == 0) {
    throw UsageError(
        "no training step is possible: " + o.files_key +
        " × dataset.num_samples_per_file = " + Str(o.files) + " × " + Str(o.samples_per_file) +
        " = " + Str(s.total_samples) + " samples over " + Str(ranks) + " ranks give " +
        Str(s.samples_per_rank) + " samples per rank, fewer than one batch (" + o.batch_key +
        " = " + Str(o.batch_size) + "); at least " + Str(ranks * o.batch_size) +
        " samples are needed (more files or samples per file, a smaller batch, or fewer ranks)");
  }
  s.steps = s.available_steps;
  if (o.step_cap > 0) {
    const auto cap = static_cast<std::uint64_t>(o.step_cap);
    if (cap > s.available_steps) {
      throw UsageError("train.total_training_steps = " + Str(cap) +
                       " exceeds the steps each rank has per epoch: ⌊⌊" + o.files_key +
                       " × dataset.num_samples_per_file / ranks⌋ / " + o.batch_key + "⌋ = ⌊⌊" +
                       Str(o.files) + " × " + Str(o.samples_per_file) + " / " + Str(ranks) +
                       "⌋ / " + Str(o.batch_size) + "⌋ = " + Str(s.available_steps) +
                       "; it caps the steps of each epoch (DLIO meaning), so set it to at most " +
                       Str(s.available_steps) + " (or -1 for no cap)");
    }
    s.steps = cap;
  }
  s.read_samples = ranks * o.batch_size * s.steps;
  s.sharding_remainder = s.total_samples - ranks * s.samples_per_rank;
  s.partial_batches = ranks * (s.samples_per_rank - o.batch_size * s.available_steps);
  s.capped = ranks * o.batch_size * (s.available_steps - s.steps);
}

EpochOrder Sampler::epoch(int epoch) const {
  const SamplerOptions& o = options_;
  auto key = [&](config::Shuffle mode, StreamPurpose purpose) {
    const std::uint64_t base =
        mode == config::Shuffle::kRandom ? o.random_seed : static_cast<std::uint64_t>(o.seed);
    const std::uint64_t epoch_seed =
        o.seed_change_epoch ? base + static_cast<std::uint64_t>(epoch) : base;
    return MixSeed({epoch_seed, static_cast<std::uint64_t>(purpose)});
  };
  const bool file_on = o.file_shuffle != config::Shuffle::kOff;
  const bool sample_on = o.sample_shuffle != config::Shuffle::kOff;

  EpochOrder order;
  order.epoch_ = epoch;
  order.samples_per_file_ = o.samples_per_file;
  if (o.order == SampleOrder::kIndex) {
    if (file_on) {
      order.shuffle_files_ = true;
      order.files_ = FeistelPermutation(o.files, key(o.file_shuffle, StreamPurpose::kFileShuffle));
    }
    if (sample_on) {
      order.shuffle_samples_ = true;
      order.samples_ = FeistelPermutation(shape_.total_samples,
                                          key(o.sample_shuffle, StreamPurpose::kSampleShuffle));
    }
  } else if (file_on || sample_on) {
    // Streaming order: only the file order changes (see the header).
    order.shuffle_files_ = true;
    order.files_ =
        file_on ? FeistelPermutation(o.files, key(o.file_shuffle, StreamPurpose::kFileShuffle))
                : FeistelPermutation(o.files, key(o.sample_shuffle, StreamPurpose::kSampleShuffle));
  }
  return order;
}

SampleRef Sampler::sample_of(const EpochOrder& order, Rank rank, std::uint64_t step,
                             std::uint64_t i) const {
  const std::uint64_t position =
      static_cast<std::uint64_t>(rank) * shape_.samples_per_rank + step * options_.batch_size + i;
  return order.at(position);
}

void Sampler::batch(const EpochOrder& order, std::uint64_t step, std::span<SampleRef> out) const {
  const std::uint64_t first = static_cast<std::uint64_t>(options_.rank) * shape_.samples_per_rank +
                              step * options_.batch_size;
  for (std::uint64_t i = 0; i < out.size(); ++i) out[i] = order.at(first + i);
}

}  // namespace dlbench::pipeline
