// Which samples each rank reads, in which order, at every step of every epoch.
//
// One global index space per split: sample g (0 ≤ g < N = files · samples_per_file) lives in
// file g / spf at index g % spf; a single shared file with many samples is
// files = 1. Each epoch defines an order of all N samples (a permutation, see "Shuffles"), and
// that order is cut into P contiguous shards of q = ⌊N/P⌋ positions: rank r reads positions
// [r·q, (r+1)·q), batch s being positions r·q + s·b + [0, b). So every rank has the same
// ⌊q/b⌋ steps (the last partial batch is dropped, as drop_last), nothing is read twice in an
// epoch, and the N − P·b·K samples left over (sharding remainder, partial batches, the step
// cap) are counted in EpochShape so that the report can say how many were skipped. Because the
// order changes every epoch when shuffling, a rank reads different files each epoch (DLIO's
// PyTorch path reads the same block every epoch, defect D6; its TF path the same file order,
// D22; its iterative sampler loses the rank offset, D7).
//
// Shuffles (each off / seed / random; the key of epoch e is seed + e when seed_change_epoch,
// else seed, where seed is train.seed in mode `seed` and the caller's run seed in mode
// `random` — drawn once per run on rank 0 and broadcast, so all ranks agree):
//  * SampleOrder::kIndex (map-style loaders: PyTorch, DALI, and every format read by index):
//    file_shuffle permutes the order of files, keeping each file's samples together and in
//    order; sample_shuffle permutes all N samples globally (then file_shuffle only changes
//    which permutation). This is what DLIO's index sampler intends.
//  * SampleOrder::kFileMajor (streaming loaders: TFRecord through tf.data reads records of a
//    file sequentially): either shuffle permutes the order of files; records are always read
//    in file order. tf.data's sample_shuffle is a shuffle buffer of `shuffle_size` records
//    mixing neighbouring records within a window; it does not change which bytes are read or
//    their order on storage beyond the file order, so it is not emulated (documented
//    difference: the trainer sees records in file order).
//
// Cost: a permutation is a Feistel network (feistel_permutation.h), so an epoch's order takes
// O(1) memory and a sample's position O(1) time, for any N; no rank touches other ranks' shards.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "config/enums.h"
#include "pipeline/feistel_permutation.h"
#include "util/units.h"

namespace dlbench::pipeline {

// One sample to read: its file (index in the split's file list) and its index inside the file.
struct SampleRef {
  FileIndex file = 0;
  std::uint64_t index = 0;
  friend bool operator==(const SampleRef&, const SampleRef&) = default;
};

enum class SampleOrder { kIndex, kFileMajor };

struct SamplerOptions {
  // Names used in error messages, e.g. "dataset.num_files_train" / "reader.batch_size".
  std::string files_key = "dataset.num_files_train";
  std::string batch_key = "reader.batch_size";

  std::uint64_t files = 1;
  std::uint64_t samples_per_file = 1;
  int ranks = 1;
  Rank rank = 0;
  std::uint64_t batch_size = 1;
  config::Shuffle file_shuffle = config::Shuffle::kOff;
  config::Shuffle sample_shuffle = config::Shuffle::kOff;
  std::int64_t seed = 123;        // train.seed
  bool seed_change_epoch = true;  // train.seed_change_epoch
  std::uint64_t random_seed = 0;  // the run's seed for Shuffle::kRandom (same on all ranks)
  std::int64_t step_cap = -1;     // train.total_training_steps: > 0 caps steps per epoch
  SampleOrder order = SampleOrder::kIndex;
};

// How an epoch's N samples are used, the same on every rank.
struct EpochShape {
  std::uint64_t total_samples = 0;     // N
  std::uint64_t samples_per_rank = 0;  // q = ⌊N/P⌋
  std::uint64_t available_steps = 0;   // ⌊q/b⌋
  std::uint64_t steps = 0;             // K: available_steps, or the step cap
  std::uint64_t read_samples = 0;      // P·b·K, each read exactly once per epoch
  // Samples not read per epoch, by cause; they sum to N − read_samples.
  std::uint64_t sharding_remainder = 0;  // N − P·q
  std::uint64_t partial_batches = 0;     // P·(q − b·available_steps)
  std::uint64_t capped = 0;              // P·b·(available_steps − K)
};

// The order of one epoch: a bijection of positions [0, N) to samples.
class EpochOrder {
 public:
  SampleRef at(std::uint64_t position) const;
  int epoch() const { return epoch_; }

 private:
  friend class Sampler;
  int epoch_ = 1;
  std::uint64_t samples_per_file_ = 1;
  bool shuffle_files_ = false;
  bool shuffle_samples_ = false;
  FeistelPermutation files_;
  FeistelPermutation samples_;
};

class Sampler {
 public:
  // Throws Error(kUsage) when a rank would get no step (naming the keys and the product that
  // is too small) or when the step cap exceeds the steps available (stating the maximum).
  explicit Sampler(const SamplerOptions& options);

  const SamplerOptions& options() const { return options_; }
  const EpochShape& shape() const { return shape_; }
  std::uint64_t steps_per_epoch() const { return shape_.steps; }
  std::uint64_t batch_size() const { return options_.batch_size; }

  // The order of `epoch` (1-based, as DLIO's seed + epoch).
  EpochOrder epoch(int epoch) const;

  // Sample `i` (< batch_size) of step `step` (< steps_per_epoch) of this rank, or of `rank`.
  SampleRef sample(const EpochOrder& order, std::uint64_t step, std::uint64_t i) const {
    return sample_of(order, options_.rank, step, i);
  }
  SampleRef sample_of(const EpochOrder& order, Rank rank, std::uint64_t step,
                      std::uint64_t i) const;
  // Fills `out` (batch_size long) with this rank's batch of `step`.
  void batch(const EpochOrder& order, std::uint64_t step, std::span<SampleRef> out) const;

 private:
  SamplerOptions options_;
  EpochShape shape_;
};

}  // namespace dlbench::pipeline
