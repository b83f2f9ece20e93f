// The staging policies that copy while training reads (stage.policy per_epoch and on_demand;
// docs/staging.md). Each rank keeps its own cache of training files on the stage.to tier, at
// <staged data folder>/.dlbench-cache/rank<r> (so no two ranks copy or evict one file), bounded by
// the tier's capacity shared evenly by the job's ranks (unbounded when the tier has none):
// - per_epoch: before epoch 1 this rank's epoch-1 files are copied (training waits, as for
//   before_training); before epoch e, a background prefetch evicts the files neither epoch e nor
//   e+1 reads and copies epoch e's missing files, then epoch e+1's, while training reads epoch e;
// - on_demand: a file is copied on its first read (the reader waits), when there is room.
// A read takes the cached copy when it is complete, the original otherwise. The cache is removed
// after training.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "config/config.h"
#include "formats/format.h"
#include "generation/dataset_files.h"
#include "metrics/json_fields.h"
#include "mpi/communicator.h"
#include "pipeline/sampler.h"
#include "pipeline/trainer.h"
#include "staging/file_cache.h"
#include "storage/file.h"

namespace dlbench::workflow {

class TrainingStaging {
 public:
  // Collective. `sampler` is the training sampler, which must outlive this.
  TrainingStaging(const config::Config& config, const mpi::Communicator& comm, storage::Env& env,
                  const pipeline::Sampler& sampler);
  ~TrainingStaging();

  // per_epoch: wraps before_epoch to start each epoch's prefetch.
  void install(pipeline::TrainerHooks& hooks);
  // Writes the spec a reader opens for training file `file` into `spec` (as
  // DatasetFiles::assign_spec): the cached copy's, or the original's. Called concurrently by
  // reader threads.
  void assign_spec(FileIndex file, formats::FileSpec& spec);
  // Collective, after training: stops the prefetch, removes the cache, returns summary.json's
  // "stage" part (stage_phase.h's StageSummary plus hits, misses, evictions, no_room, peak).
  metrics::Json finish();

 private:
  std::vector<std::size_t> epoch_files(int epoch) const;

  const config::Config& config_;
  const mpi::Communicator comm_;
  storage::Env& env_;
  const pipeline::Sampler& sampler_;
  const generation::DatasetFiles source_;
  const config::DatasetConfig cache_dataset_;  // the dataset in this rank's cache folder
  const generation::DatasetFiles cached_;      // refers to cache_dataset_
  std::unique_ptr<staging::FileCache> cache_;
  std::atomic<std::uint64_t> hits_{0};
  std::atomic<std::uint64_t> misses_{0};
  Seconds first_epoch_wait_ = 0;  // per_epoch: copying epoch 1's files before it
};

}  // namespace dlbench::workflow
