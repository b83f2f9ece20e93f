#include "workflow/training_staging.h"

#include <chrono>
#include <filesystem>
#include <limits>
#include <set>

#include "mpi/agreement.h"
#include "workflow/stage_phase.h"

namespace dlbench::workflow {
namespace {

config::DatasetConfig InFolder(const config::DatasetConfig& dataset, const std::string& folder) {
  config::DatasetConfig moved = dataset;
  moved.data_folder = folder;
  return moved;
}

Bytes RankCapacity(const config::Config& config, const mpi::Communicator& comm) {
  for (const config::TierConfig& tier : config.storage.tiers) {
    if (tier.name == config.stage.to && tier.capacity) {
      return *tier.capacity / static_cast<Bytes>(comm.size());
    }
  }
  return std::numeric_limits<Bytes>::max();
}

}  // namespace

TrainingStaging::TrainingStaging(const config::Config& config, const mpi::Communicator& comm,
                                 storage::Env& env, const pipeline::Sampler& sampler)
    : config_(config),
      comm_(comm),
      env_(env),
      sampler_(sampler),
      source_(config.dataset),
      cache_dataset_(InFolder(config.dataset, StagedDataFolder(config) + "/.dlbench-cache/rank" +
                                                  std::to_string(comm.rank()))),
      cached_(cache_dataset_) {
  mpi::AgreeOnFailure(comm, [&] {
    // Only the files this rank reads in some epoch become units; the others are never asked for.
    std::set<std::size_t> read;
    for (int epoch = 1; epoch <= config.train.epochs; ++epoch) {
      for (const std::size_t f : epoch_files(epoch)) read.insert(f);
    }
    std::vector<staging::CacheUnit> units(static_cast<std::size_t>(config.dataset.num_files_train));
    for (const std::size_t f : read) {
      units[f].files = CopiesOf(source_, cached_, f);
      for (const staging::FileCopy& copy : units[f].files)
        units[f].bytes += env.file_size(copy.from);
    }
    env.remove_tree(cache_dataset_.data_folder);  // a cache a killed run left
    cache_ = std::make_unique<staging::FileCache>(env, std::move(units), RankCapacity(config, comm),
                                                  CopyOptionsFrom(config.stage));
  });
}

TrainingStaging::~TrainingStaging() = default;

std::vector<std::size_t> TrainingStaging::epoch_files(int epoch) const {
  std::vector<std::size_t> files;
  std::set<std::size_t> seen;
  const pipeline::EpochOrder order = sampler_.epoch(epoch);
  for (std::uint64_t step = 0; step < sampler_.steps_per_epoch(); ++step) {
    for (std::uint64_t i = 0; i < sampler_.batch_size(); ++i) {
      const auto f = static_cast<std::size_t>(sampler_.sample(order, step, i).file);
      if (seen.insert(f).second) files.push_back(f);
    }
  }
  return files;
}

void TrainingStaging::install(pipeline::TrainerHooks& hooks) {
  if (config_.stage.policy != config::StagePolicy::kPerEpoch) return;
  hooks.before_epoch = [this, previous = std::move(hooks.before_epoch)](int epoch) {
    if (previous) previous(epoch);
    std::vector<std::size_t> wanted = epoch_files(epoch);
    if (epoch == 1) {
      const auto start = std::chrono::steady_clock::now();
      cache_->prefetch(wanted);
      cache_->wait();
      first_epoch_wait_ =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
    if (epoch < config_.train.epochs) {
      for (const std::size_t f : epoch_files(epoch + 1)) wanted.push_back(f);
    }
    cache_->prefetch(std::move(wanted));
  };
}

void TrainingStaging::assign_spec(FileIndex file, formats::FileSpec& spec) {
  const bool cached = config_.stage.policy == config::StagePolicy::kOnDemand
                          ? cache_->fetch(static_cast<std::size_t>(file))
                          : cache_->cached(static_cast<std::size_t>(file));
  ++(cached ? hits_ : misses_);
  (cached ? cached_ : source_).assign_spec(file, spec);
}

metrics::Json TrainingStaging::finish() {
  std::exception_ptr error;
  try {
    cache_->clear();
    env_.remove_tree(cache_dataset_.data_folder);
  } catch (...) {
    error = std::current_exception();
  }
  const staging::CacheStats stats = cache_->stats();
  metrics::Json stage = StageSummary(config_, stats.copied, comm_);
  stage["first_epoch_wait_seconds"] = comm_.max(first_epoch_wait_);
  stage["reads_from_cache"] = comm_.sum(hits_.load());
  stage["reads_from_source"] = comm_.sum(misses_.load());
  stage["evictions"] = comm_.sum(stats.evictions);
  stage["no_room"] = comm_.sum(stats.no_room);
  stage["peak_bytes_per_rank"] = comm_.max(stats.peak_bytes);
  // Every rank's cache is gone (the sums above were collective): the folder holding them too.
  if (!error && comm_.is_root()) {
    env_.remove_tree(std::filesystem::path(cache_dataset_.data_folder).parent_path().string());
  }
  if (error) std::rethrow_exception(error);
  return stage;
}

}  // namespace dlbench::workflow
