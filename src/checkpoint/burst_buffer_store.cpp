#include "checkpoint/burst_buffer_store.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <utility>

#include "checkpoint/background_remover.h"
#include "checkpoint/checkpoint_commit.h"
#include "checkpoint/checkpoint_reader.h"
#include "checkpoint/checkpoint_writer.h"
#include "checkpoint/direct_store.h"
#include "checkpoint/drain_engine.h"
#include "checkpoint/fast_tier_spares.h"
#include "checkpoint/manifest.h"
#include "checkpoint/name_lists.h"
#include "metrics/clock.h"
#include "mpi/agreement.h"
#include "storage/atomic_file.h"
#include "storage/tier_env.h"
#include "util/error.h"
#include "util/file_names.h"
#include "util/path_text.h"
#include "util/sink.h"
#include "util/size_text.h"

namespace dlbench::checkpoint {
namespace {

// Drawn by rank 0 for each save: tells this save's drain markers from an earlier save's.
std::string NewSaveToken() {
  std::random_device device;
  char text[32];
  std::snprintf(text, sizeof text, "%08x%08x", device(), device());
  return text;
}

std::string FormatSeconds(Seconds value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

// The paths of `files` in `folder`, one a call, made as they are asked for.
BackgroundRemover::PathSource PathsOf(std::string folder, PlannedFiles files) {
  return [folder = std::move(folder), files = std::move(files),
          next = std::size_t{0}]() mutable -> std::optional<std::string> {
    if (next == files.size()) return std::nullopt;
    return JoinPath(folder, files.name(next++));
  };
}

}  // namespace

std::unique_ptr<CheckpointStore> MakeBurstBufferStore(const config::Config& config,
                                                      const mpi::Communicator& comm,
                                                      storage::Env& env, Seconds origin) {
  return std::make_unique<BurstBufferStore>(config, comm, env, origin);
}

BurstBufferStore::BurstBufferStore(const config::Config& config, const mpi::Communicator& comm,
                                   storage::Env& env, Seconds origin,
                                   const BurstBufferTuning& tuning)
    : config_(config), comm_(comm), env_(env), origin_(origin), tuning_(tuning) {
  if (!config.checkpoint.burst_buffer) {
    throw InternalError("checkpoint.burst_buffer is not set: no burst buffer to store checkpoints");
  }
  const config::BurstBufferConfig& bb = *config.checkpoint.burst_buffer;
  const config::TierConfig* tier = nullptr;
  for (const config::TierConfig& t : config.storage.tiers) {
    if (t.name == bb.tier) tier = &t;
  }
  // The rest of the burst buffer's settings passed config::Validate (config/storage_rules.cpp).
  if (tier == nullptr) {
    throw InternalError("checkpoint.burst_buffer.tier '" + bb.tier +
                        "' is not a storage.tiers entry (validation missed it)");
  }
  tier_name_ = tier->name;
  tier_path_ = TrimTrailingSlashes(tier->path);
  tier_capacity_ = tier->capacity;
  const std::string fast = AbsoluteFolder(tier_path_);
  nodes_ = tier->node_local ? mpi::NodeMap::Of(comm_) : mpi::NodeMap::Single(comm_.size());
  if (tier->node_local && nodes_.emulated()) {
    // On one machine, emulated nodes are distinct only if their folders are.
    const std::vector<std::string> folders = comm_.all_gather(fast);
    for (Rank a = 0; a < comm_.size(); ++a) {
      for (Rank b = a + 1; b < comm_.size(); ++b) {
        if (nodes_.node_of(a) == nodes_.node_of(b) || folders[a] != folders[b]) continue;
        throw UsageError("storage.tiers." + tier_name_ + " is node_local, but emulated nodes " +
                         nodes_.name(nodes_.node_of(a)) + " and " + nodes_.name(nodes_.node_of(b)) +
                         " both have it at " + folders[a] + ": put " + config::kNodePlaceholder +
                         " in its path")
            .mark_collective();
      }
    }
  }
  WriterOptions writer =
      WriterOptions::FromConfig(config.checkpoint, CheckpointContentSeed(config));
  writer.buffer_bytes = tuning.buffer_bytes;
  writer_ = std::make_unique<CheckpointWriter>(env_, writer);
  DrainOptions drain;
  drain.threads = bb.drain_threads;
  drain.buffer_bytes = tuning.buffer_bytes;
  drain.origin = origin;
  drain.marker_timeout = tuning.marker_timeout;
  drain.poll_interval = tuning.poll_interval;
  drains_ = std::make_unique<DrainEngine>(env_, drain);
  remover_ = std::make_unique<BackgroundRemover>(env_);
  const std::string spare_root = JoinPath(tier_path_, file_names::kSpareFolder);
  mpi::AgreeOnFailure(comm_, [&] {  // spares a run that stopped left behind
    if (leads()) env_.remove_tree(spare_root);
  });
  const storage::Capabilities can = env_.capabilities(tier_path_);
  if (can.rename && can.random_writes) {
    spares_ =
        std::make_unique<FastTierSpares>(env_, JoinPath(spare_root, std::to_string(comm_.rank())));
  } else if (bb.preallocate == config::Preallocate::kYes) {
    throw UsageError("checkpoint.burst_buffer.preallocate: tier " + tier_name_ + " (" + tier_path_ +
                     ") cannot rename files and overwrite them in place, so a save " +
                     "could not reuse the space; drop preallocate or use a file-system tier")
        .mark_collective();
  }
  resume();
  // By default only where a save would otherwise pay for new memory: every rank's tier in memory.
  const bool automatic = bb.preallocate == config::Preallocate::kAuto;
  if (bb.preallocate == config::Preallocate::kYes ||
      (automatic && comm_.min(spares_ && can.memory ? 1 : 0) == 1)) {
    preallocate(automatic);
  }
}

void BurstBufferStore::preallocate(bool automatic) {
  const config::BurstBufferConfig& bb = *config_.checkpoint.burst_buffer;
  std::unique_ptr<CheckpointPlan> plan;
  mpi::AgreeOnFailure(comm_, [&] {
    plan = std::make_unique<CheckpointPlan>(config_.model, config_.checkpoint, comm_.size());
  });
  share_ = largest_node_share(*plan);
  int sets = bb.max_pending_checkpoints;
  if (tier_capacity_ && share_ > 0) {
    sets = static_cast<int>(std::min<Bytes>(static_cast<Bytes>(sets), *tier_capacity_ / share_));
  }
  if (sets == 0) return;  // not one checkpoint fits the capacity: the first save says so (exit 2)
  const int wanted = sets;
  if (automatic && share_ > 0) {
    // Half the free space at most: a tier in memory is the node's memory, which the run and
    // others need too (Open MPI's shared-memory segments live in /dev/shm). Measured before any
    // rank writes, and the same number of sets on every rank.
    mpi::AgreeOnFailure(comm_, [&] {
      const Bytes half = env_.free_space(tier_path_) / 2;
      sets = static_cast<int>(std::min<Bytes>(static_cast<Bytes>(sets), half / share_));
    });
    sets = comm_.min(sets);
  }
  const std::string limited = sets < wanted
                                  ? ", " + std::to_string(sets) + " of " + std::to_string(wanted) +
                                        " for half its free space"
                                  : "";
  if (sets == 0) {
    if (comm_.is_root()) {
      sink::Note("checkpoint.burst_buffer.preallocate: auto: half the free space of tier " +
                 tier_name_ + " (" + tier_path_ + ", in memory) holds no checkpoint of " +
                 DescribeBytes(share_) + ": not preallocated, saves allocate their memory");
    }
    return;
  }
  const PlannedFiles files = plan->for_rank(comm_.rank()).files;
  const Seconds start = metrics::Now();
  mpi::AgreeOnFailure(comm_, [&] {
    storage::AlignedBuffer zeros(tuning_.buffer_bytes);
    spares_->preallocate(files, sets, zeros);
  });
  const Seconds took = comm_.max(metrics::Now() - start);
  const Bytes total = comm_.sum(static_cast<std::uint64_t>(spares_->bytes()));
  if (comm_.is_root()) {
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%.2f", took);
    sink::Note("preallocated " + DescribeBytes(total) + " on tier " + tier_name_ + " (" +
               tier_path_ + "), the files of " + std::to_string(sets) + " checkpoint(s), in " +
               seconds + " s (checkpoint.burst_buffer.preallocate" +
               (automatic ? ": auto, the tier is in memory" + limited + "; false to skip" : "") +
               "): saves overwrite them in place");
  }
}

bool BurstBufferStore::keeps_another_spare_set() const {
  if (!spares_) return false;
  const int sets = spares_->sets() + 1;
  if (sets > config_.checkpoint.burst_buffer->max_pending_checkpoints) return false;
  return !tier_capacity_ || static_cast<Bytes>(sets) * share_ <= *tier_capacity_;
}

BurstBufferStore::~BurstBufferStore() = default;

std::string BurstBufferStore::fast_folder(const std::string& name) const {
  return JoinPath(tier_path_, name);
}

std::string BurstBufferStore::capacity_folder(const std::string& name) const {
  return JoinPath(TrimTrailingSlashes(config_.checkpoint.checkpoint_folder), name);
}

Bytes BurstBufferStore::largest_node_share(const CheckpointPlan& plan) const {
  std::map<int, Bytes> bytes;
  for (Rank r = 0; r < plan.world(); ++r) bytes[nodes_.node_of(r)] += plan.for_rank(r).bytes;
  Bytes largest = 0;
  for (const auto& [node, b] : bytes) largest = std::max(largest, b);
  return largest;
}

void BurstBufferStore::collect(std::vector<DrainOutcome> outcomes) {
  for (DrainOutcome& outcome : outcomes) {
    // A cancelled drain belongs to a save that already failed (and said why): nothing to report.
    if (!outcome.cancelled) finished_.push_back(std::move(outcome));
  }
}

std::string BurstBufferStore::evict_durable(bool keep_spares) {
  const bool evict = config_.checkpoint.burst_buffer->evict_after_drain;
  std::vector<std::string> lines;
  if (comm_.is_root()) {
    for (const DrainOutcome& outcome : finished_) {
      if (!outcome.durable_at || durable_at_.contains(outcome.name)) continue;
      lines.push_back(outcome.name + "\t" + FormatSeconds(*outcome.durable_at));
    }
  }
  std::vector<std::string> durable;
  for (const std::string& line : SplitNames(comm_.broadcast(JoinNames(lines), 0))) {
    const std::size_t tab = line.find('\t');
    durable.push_back(line.substr(0, tab));
    durable_at_[durable.back()] = std::stod(line.substr(tab + 1));
  }
  std::string error;
  std::set<std::string> kept;  // names whose fast-tier manifest this node's leader kept
  if (evict && !durable.empty()) {
    // Readers decide by the fast-tier manifest, so each node's leader withdraws its node's before
    // any file there goes; a node whose manifest stays keeps its files (the copy looks complete).
    std::string failed;
    if (leads()) {
      for (const std::string& name : durable) {
        try {
          env_.remove(JoinPath(fast_folder(name), file_names::kCheckpointManifest));
        } catch (const Error& e) {
          if (error.empty()) error = e.what();
          failed += name + "\n";
        }
      }
    }
    const int leader = nodes_.leader(nodes_.node_of(comm_.rank()));
    for (const std::string& name : SplitNames(comm_.all_gather(failed)[leader])) kept.insert(name);
  }
  for (const std::string& name : durable) {
    auto saved =
        std::find_if(saved_.begin(), saved_.end(), [&](const Saved& s) { return s.name == name; });
    if (saved == saved_.end()) continue;
    if (evict && !kept.contains(name)) {
      // Unreadable from now on (no fast-tier manifest): kept as spares for later saves, or
      // removed in the background, so that freeing their pages is not part of this (trainer's)
      // call.
      try {
        if (keep_spares && keeps_another_spare_set()) {
          spares_->give(fast_folder(name), saved->files);
        } else {
          remover_->remove(fast_folder(name), PathsOf(fast_folder(name), saved->files));
        }
      } catch (const Error& e) {
        if (error.empty()) error = e.what();
      }
      evicted_folders_.push_back(fast_folder(name));
    }
    saved_.erase(saved);
  }
  const std::string removal_error = remover_->take_error();
  if (error.empty()) error = removal_error;
  return error;
}

StoreOpResult BurstBufferStore::save(const std::string& name, const CheckpointPlan& plan) {
  StoreOpResult result;
  result.name = name;
  result.tier = tier_name_;
  result.start = metrics::Now() - origin_;
  const config::BurstBufferConfig& bb = *config_.checkpoint.burst_buffer;
  const RankPlan mine = plan.for_rank(comm_.rank());
  const std::optional<Bytes> capacity = tier_capacity_;
  // A node-local tier holds its node's ranks' files; a shared one holds them all.
  const Bytes share = largest_node_share(plan);
  if (capacity && share > *capacity) {
    throw UsageError("checkpoint " + name + " needs " + DescribeBytes(share) +
                     (nodes_.node_count() > 1 ? " on one node's" : " on") + " tier " + tier_name_ +
                     ", more than its capacity of " + DescribeBytes(*capacity) +
                     " (storage.tiers " + tier_name_ + ".capacity)");
  }

  // Backpressure: rank 0 sees every drain through to durability, so it decides for all. It also
  // draws the save's token; then each node's leader withdraws its fast-tier manifest of an earlier
  // checkpoint of this name, which must not look complete while it is rewritten. Nothing here
  // touches the capacity tier: its side of the save (the old manifest, markers) is the drain's
  // (drain_engine.h), so that a slow or busy capacity tier never holds the trainer.
  std::string header = "0";
  std::string local_error;
  if (comm_.is_root()) {
    const Seconds waited = drains_->wait_until(
        [&](int pending, Bytes pending_bytes) {
          if (pending >= bb.max_pending_checkpoints) return false;
          if (!capacity || pending == 0) return true;
          // Spare sets hold their space; this save overwrites one of them if there is one.
          const int sets = std::max(spares_ ? spares_->sets() : 0, 1);
          return pending_bytes + static_cast<Bytes>(sets) * share <= *capacity;
        },
        tuning_.on_backpressure);
    if (waited > 0) header = "1";
    header += " " + NewSaveToken();
  }
  collect(drains_->take_finished());
  header = comm_.broadcast(header, 0);
  if (leads()) {
    try {
      env_.remove(JoinPath(fast_folder(name), file_names::kCheckpointManifest));
    } catch (const Error& e) {
      local_error = e.what();
    }
  }
  if (header.starts_with("1")) result.backpressure = metrics::Now() - origin_ - result.start;
  const std::string token = header.substr(2);
  const std::string evict_error = evict_durable();
  if (local_error.empty()) local_error = evict_error;
  // Files of this name still being evicted (a name saved again) must go before new ones land.
  remover_->wait_folder(fast_folder(name));
  // From here to the commit the save has this rank to itself: the drains of earlier checkpoints
  // (over older copies of their names, at the capacity tier's pace) and the evictions wait, so
  // that the save never waits for, or competes with, anything of the capacity tier. This save's
  // own drain, queued below, still copies each file as soon as it is written.
  struct BackgroundHeld {
    DrainEngine& drains;
    BackgroundRemover& remover;
    BackgroundHeld(DrainEngine& d, BackgroundRemover& r) : drains(d), remover(r) {
      drains.hold();
      remover.hold();
    }
    ~BackgroundHeld() {
      remover.release();
      drains.release();
    }
    BackgroundHeld(const BackgroundHeld&) = delete;
    BackgroundHeld& operator=(const BackgroundHeld&) = delete;
  } held{*drains_, *remover_};

  // The drain is queued before the write, so that it copies each file as soon as the writer has
  // renamed it into place; it marks nothing drained until the commit below succeeded, and a failed
  // save cancels it (the guard), whose copies are then removed.
  std::shared_ptr<DrainFeed> feed;
  struct CancelUnlessCommitted {
    std::shared_ptr<DrainFeed>& feed;
    ~CancelUnlessCommitted() {
      if (feed) feed->cancel();
    }
  } guard{feed};
  RankIoResult io;
  const ContentSettings content{config_.checkpoint.randomize_tensor,
                                CheckpointContentSeed(config_)};
  if (local_error.empty()) {
    feed = std::make_shared<DrainFeed>(mine.files.size());
    DrainJob job;
    job.name = name;
    job.fast_folder = fast_folder(name);
    job.capacity_folder = capacity_folder(name);
    job.files = mine.files.without_tensors();
    job.marks = {comm_.rank()};
    job.world = plan.world();
    job.finisher = comm_.is_root();
    // The manifest the commit below prints on the fast tier, printed again by the finisher.
    if (job.finisher) job.plan = std::make_shared<const CheckpointPlan>(plan);
    job.total_bytes = share;
    job.feed = feed;
    job.token = token;
    job.content = content;
    drains_->enqueue(std::move(job));
    std::vector<bool> reuse;
    try {
      if (spares_ && spares_->sets() > 0) {
        env_.create_directories(fast_folder(name));
        reuse = spares_->take(fast_folder(name), mine.files);
      }
      io = writer_->write_rank(
          fast_folder(name), mine,
          [&](std::size_t file) {
            feed->mark_ready(file);
            if (tuning_.on_file_written) tuning_.on_file_written(mine.files.name(file));
          },
          reuse);
    } catch (const Error& e) {
      local_error = e.what();
      // Spares moved to a temporary name that the writer, stopped by the error, never opened.
      for (std::size_t i = 0; i < reuse.size(); ++i) {
        if (!reuse[i]) continue;
        try {
          env_.remove(storage::PartialPathFor(JoinPath(fast_folder(name), mine.files.name(i))));
        } catch (const Error&) {  // litter at worst: a temporary name is never read
        }
      }
    }
  }
  if (!CommitCheckpoint(comm_, nodes_, env_, fast_folder(name), plan, content,
                        config_.checkpoint.fsync, local_error.empty())) {
    if (feed) feed->cancel();
    mpi::AgreeOnFailure(comm_, [&] {
      if (!local_error.empty()) throw Error(ExitCode::kIo, local_error);
    });
  }
  if (feed) feed->commit();

  saved_.push_back({name, mine.files.without_tensors()});
  share_ = share;

  result.bytes = io.bytes;
  result.end = metrics::Now() - origin_;
  return result;
}

StoreOpResult BurstBufferStore::load(const std::string& name, const CheckpointPlan& plan,
                                     Rank source_rank) {
  StoreOpResult result;
  result.name = name;
  result.start = metrics::Now() - origin_;
  collect(drains_->take_finished());
  const std::string evict_error = evict_durable();
  // Decided together: evictions happen only inside collective calls, so what the leaders see now
  // holds for every rank until this Load returns. The fast tier serves only if every node holds
  // the checkpoint and every rank's source rank is on its node (a node-local tier).
  int on_fast = 1;
  int durable = 0;
  std::string error;
  try {
    if (leads()) on_fast = IsCheckpointComplete(env_, fast_folder(name)) ? 1 : 0;
    if (comm_.is_root()) durable = IsCheckpointComplete(env_, capacity_folder(name)) ? 1 : 0;
  } catch (const Error& e) {
    error = e.what();
  }
  if (nodes_.node_of(source_rank) != nodes_.node_of(comm_.rank())) on_fast = 0;
  on_fast = comm_.min(on_fast);
  durable = comm_.max(durable);
  const std::string where = on_fast ? "fast" : (durable ? "capacity" : "");
  std::string folder;
  mpi::AgreeOnFailure(comm_, [&] {
    if (!evict_error.empty()) throw Error(ExitCode::kIo, evict_error);
    if (!error.empty()) throw Error(ExitCode::kIo, error);
    if (where.empty()) {
      throw IoError("load checkpoint", name, 0,
                    "neither complete on tier " + tier_name_ + " (" + fast_folder(name) +
                        ") nor durable in the checkpoint folder (" + capacity_folder(name) +
                        "): no " + file_names::kCheckpointManifest);
    }
    const bool fast = where == "fast";
    folder = fast ? fast_folder(name) : capacity_folder(name);
    result.tier = fast ? tier_name_ : "checkpoint_folder";
  });
  mpi::AgreeOnFailure(comm_, [&] {
    if (!reader_) {
      CheckpointReaderOptions options = CheckpointReaderOptions::FromConfig(config_.checkpoint);
      options.buffer_bytes = tuning_.buffer_bytes;
      reader_ = std::make_unique<CheckpointReader>(env_, options);
    }
    result.bytes = reader_->read_rank(folder, plan.for_rank(source_rank)).bytes;
  });
  result.end = metrics::Now() - origin_;
  return result;
}

std::vector<DrainResult> BurstBufferStore::finish() {
  collect(drains_->wait_all());
  std::string local_error = evict_durable(/*keep_spares=*/false);
  const bool had_spares = spares_ && spares_->created();
  if (spares_) remover_->remove(spares_->folder(), spares_->release());
  remover_->wait_idle();
  const std::string removal_error = remover_->take_error();
  if (local_error.empty()) local_error = removal_error;
  for (const DrainOutcome& outcome : finished_) {
    if (!outcome.error.empty() && local_error.empty()) {
      local_error = "checkpoint " + outcome.name + " is not durable in " +
                    capacity_folder(outcome.name) + " (its complete copy stays in " +
                    fast_folder(outcome.name) + "): " + outcome.error;
    }
  }
  // Empty folders go only after every rank has removed its files.
  if (had_spares) {
    try {
      env_.remove(spares_->folder());
    } catch (const Error&) {  // only if empty
    }
  }
  if (comm_.max(had_spares ? 1 : 0) == 1 && leads()) {
    evicted_folders_.push_back(JoinPath(tier_path_, file_names::kSpareFolder));
  }
  if (leads()) {
    for (const std::string& folder : evicted_folders_) {
      try {
        env_.remove(folder);
      } catch (const Error&) {  // only if empty: someone else's file keeps it
      }
    }
  }
  evicted_folders_.clear();
  std::vector<DrainResult> results;
  for (const DrainOutcome& outcome : finished_) {
    DrainResult r;
    r.name = outcome.name;
    r.start = outcome.start;
    r.end = outcome.end;
    r.bytes = outcome.bytes;
    auto at = durable_at_.find(outcome.name);
    r.durable_at = at != durable_at_.end() ? at->second : 0;
    results.push_back(r);
  }
  finished_.clear();
  mpi::AgreeOnFailure(comm_, [&] {
    if (!local_error.empty()) throw Error(ExitCode::kIo, local_error);
  });
  return results;
}

}  // namespace dlbench::checkpoint
