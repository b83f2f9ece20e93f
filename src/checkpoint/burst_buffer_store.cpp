#include "checkpoint/burst_buffer_store.h"

#include <algorithm>
#include <cstdio>
#include <exception>
#include <map>
#include <random>
#include <sstream>
#include <utility>

#include "checkpoint/background_remover.h"
#include "checkpoint/checkpoint_commit.h"
#include "checkpoint/checkpoint_reader.h"
#include "checkpoint/checkpoint_writer.h"
#include "checkpoint/direct_store.h"
#include "checkpoint/drain_engine.h"
#include "checkpoint/manifest.h"
#include "metrics/clock.h"
#include "mpi/agreement.h"
#include "storage/tier_env.h"
#include "util/error.h"
#include "util/path_text.h"
#include "util/sink.h"
#include "util/size_text.h"

namespace dlbench::checkpoint {
namespace {

std::string Join(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& line : lines) text += line + "\n";
  return text;
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) lines.push_back(line);
  }
  return lines;
}

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
    throw UsageError("checkpoint.burst_buffer is not set: no burst buffer to store checkpoints");
  }
  const config::BurstBufferConfig& bb = *config.checkpoint.burst_buffer;
  const config::TierConfig* tier = nullptr;
  for (const config::TierConfig& t : config.storage.tiers) {
    if (t.name == bb.tier) tier = &t;
  }
  // The rest of the burst buffer's settings passed config::Validate (config/storage_rules.cpp).
  if (tier == nullptr) {
    throw Error(ExitCode::kInternal, "checkpoint.burst_buffer.tier '" + bb.tier +
                                         "' is not a storage.tiers entry (validation missed it)");
  }
  tier_name_ = tier->name;
  tier_path_ = TrimTrailingSlashes(tier->path);
  tier_capacity_ = tier->capacity;
  nodes_ = static_cast<Bytes>(std::max(1, comm_.node_count()));
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
  Resume();
}

BurstBufferStore::~BurstBufferStore() = default;

std::string BurstBufferStore::FastFolder(const std::string& name) const {
  return JoinPath(tier_path_, name);
}

std::string BurstBufferStore::CapacityFolder(const std::string& name) const {
  return JoinPath(TrimTrailingSlashes(config_.checkpoint.checkpoint_folder), name);
}

void BurstBufferStore::Resume() {
  // Rank 0 finds them (the fast tier is visible to it, see the header) and clears stale failure
  // markers before anyone's drain can look at them.
  std::string found;
  mpi::AgreeOnFailure(comm_, [&] {  // a folder rank 0 cannot list fails every rank
    if (!comm_.is_root()) return;
    std::vector<std::string> names;
    // Listed sorted: global_epoch..._step... names sort by time.
    for (const storage::DirectoryEntry& entry : env_.list_directory(tier_path_)) {
      const std::string& name = entry.name;
      if (!entry.is_directory) continue;
      if (!IsCheckpointComplete(env_, FastFolder(name))) continue;     // not ours, or partial
      if (IsCheckpointComplete(env_, CapacityFolder(name))) continue;  // durable already
      names.push_back(name);
    }
    for (const std::string& name : names) {
      for (const storage::DirectoryEntry& entry : env_.list_directory(CapacityFolder(name))) {
        if (IsDrainFailedMarkerName(entry.name)) {
          env_.remove(JoinPath(CapacityFolder(name), entry.name));
        }
      }
    }
    found = Join(names);
  });
  resumed_ = Lines(comm_.broadcast(found, 0));
  for (const std::string& name : resumed_) {
    const Manifest manifest = ReadManifest(env_, FastFolder(name));
    DrainJob job;
    job.name = name;
    job.fast_folder = FastFolder(name);
    job.capacity_folder = CapacityFolder(name);
    job.world = manifest.world;
    job.finisher = comm_.is_root();
    job.total_bytes = manifest.total_bytes;
    // The checkpoint's ranks are dealt over this run's ranks; parts already marked drained are
    // complete and fsync'd, so they are not copied again.
    std::map<Rank, bool> done;
    for (Rank r = comm_.rank(); r < manifest.world; r += comm_.size()) {
      done[r] = env_.exists(JoinPath(job.capacity_folder, DrainedMarkerName(r)));
      if (!done[r]) job.marks.push_back(r);
    }
    Saved saved{name, {}};
    for (const ManifestEntry& entry : manifest.files) {
      if (entry.rank % comm_.size() != comm_.rank()) continue;
      saved.own_files.push_back(entry.name);
      if (!done[entry.rank]) job.files.push_back({entry.name, entry.bytes});
    }
    saved_.push_back(std::move(saved));
    drains_->Enqueue(std::move(job));
  }
  if (comm_.is_root() && !resumed_.empty()) {
    std::string names;
    for (const std::string& name : resumed_) names += " " + name;
    sink::Message("dlbench: resuming the drain of " + std::to_string(resumed_.size()) +
                  " checkpoint(s) complete on tier " + tier_name_ + " (" + tier_path_ +
                  ") but not durable in " + config_.checkpoint.checkpoint_folder + ":" + names);
  }
}

void BurstBufferStore::Collect(std::vector<DrainOutcome> outcomes) {
  for (DrainOutcome& outcome : outcomes) {
    // A cancelled drain belongs to a save that already failed (and said why): nothing to report.
    if (!outcome.cancelled) finished_.push_back(std::move(outcome));
  }
}

std::string BurstBufferStore::EvictDurable() {
  const bool evict = config_.checkpoint.burst_buffer->evict_after_drain;
  std::string error;
  std::vector<std::string> lines;
  if (comm_.is_root()) {
    for (const DrainOutcome& outcome : finished_) {
      if (!outcome.durable_at || durable_at_.contains(outcome.name)) continue;
      try {
        // Readers decide by the fast-tier manifest, so it goes before any file does.
        if (evict) env_.remove(JoinPath(FastFolder(outcome.name), kManifestFileName));
      } catch (const Error& e) {
        if (error.empty()) error = e.what();
        continue;  // not announced: nobody removes files of a copy that still looks complete
      }
      lines.push_back(outcome.name + "\t" + FormatSeconds(*outcome.durable_at));
    }
  }
  const std::vector<std::string> durable = Lines(comm_.broadcast(Join(lines), 0));
  for (const std::string& line : durable) {
    const std::size_t tab = line.find('\t');
    const std::string name = line.substr(0, tab);
    durable_at_[name] = std::stod(line.substr(tab + 1));
    auto saved =
        std::find_if(saved_.begin(), saved_.end(), [&](const Saved& s) { return s.name == name; });
    if (saved == saved_.end()) continue;
    if (evict) {
      // Unreadable from now on (no fast-tier manifest): removed in the background, so that
      // freeing their pages is not part of this (trainer's) call.
      std::vector<std::string> files;
      for (const std::string& file : saved->own_files)
        files.push_back(JoinPath(FastFolder(name), file));
      remover_->Remove(std::move(files));
      evicted_folders_.push_back(FastFolder(name));
    }
    saved_.erase(saved);
  }
  const std::string removal_error = remover_->TakeError();
  if (error.empty()) error = removal_error;
  return error;
}

StoreOpResult BurstBufferStore::Save(const std::string& name, const CheckpointPlan& plan) {
  StoreOpResult result;
  result.name = name;
  result.tier = tier_name_;
  result.start = metrics::Now() - origin_;
  const config::BurstBufferConfig& bb = *config_.checkpoint.burst_buffer;
  const RankPlan mine = plan.ForRank(comm_.rank());
  const Bytes total = plan.Summarize().total_bytes;
  const std::optional<Bytes> capacity = tier_capacity_;
  // A node-local tier holds its node's share; one node holds it all.
  const Bytes per_node = total / nodes_;
  if (capacity && per_node > *capacity) {
    throw UsageError("checkpoint " + name + " needs " + DescribeBytes(per_node) +
                     " per node on tier " + tier_name_ + ", more than its capacity of " +
                     DescribeBytes(*capacity) + " (storage.tiers " + tier_name_ + ".capacity)");
  }

  // Backpressure: rank 0 sees every drain through to durability, so it decides for all. It also
  // draws the save's token and withdraws the fast-tier manifest of an earlier checkpoint of this
  // name, which must not look complete while it is rewritten. Nothing here touches the capacity
  // tier: its side of the save (the old manifest, markers) is the drain's (drain_engine.h), so
  // that a slow or busy capacity tier never holds the trainer.
  std::string header = "0";
  std::string local_error;
  if (comm_.is_root()) {
    const Seconds waited = drains_->WaitUntil(
        [&](int pending, Bytes pending_bytes) {
          if (pending >= bb.max_pending_checkpoints) return false;
          if (!capacity || pending == 0) return true;
          return (pending_bytes + total) / nodes_ <= *capacity;
        },
        tuning_.on_backpressure);
    if (waited > 0) header = "1";
    header += " " + NewSaveToken();
    try {
      env_.remove(JoinPath(FastFolder(name), kManifestFileName));
    } catch (const Error& e) {
      local_error = e.what();
    }
  }
  Collect(drains_->TakeFinished());
  header = comm_.broadcast(header, 0);
  if (header.starts_with("1")) result.backpressure = metrics::Now() - origin_ - result.start;
  const std::string token = header.substr(2);
  const std::string evict_error = EvictDurable();
  if (local_error.empty()) local_error = evict_error;
  // Files of this name still being evicted (a name saved again) must go before new ones land.
  remover_->WaitFolder(FastFolder(name));

  // The drain is queued before the write, so that it copies each file as soon as the writer has
  // renamed it into place; it marks nothing drained until the commit below succeeded, and a failed
  // save cancels it (the guard), whose copies are then removed.
  std::shared_ptr<DrainFeed> feed;
  struct CancelUnlessCommitted {
    std::shared_ptr<DrainFeed>& feed;
    ~CancelUnlessCommitted() {
      if (feed) feed->Cancel();
    }
  } guard{feed};
  RankIoResult io;
  if (local_error.empty()) {
    feed = std::make_shared<DrainFeed>(mine.files.size());
    DrainJob job;
    job.name = name;
    job.fast_folder = FastFolder(name);
    job.capacity_folder = CapacityFolder(name);
    for (const PlannedFile& file : mine.files) job.files.push_back({file.name, file.bytes});
    job.marks = {comm_.rank()};
    job.world = plan.world();
    job.finisher = comm_.is_root();
    job.total_bytes = total;
    job.feed = feed;
    job.token = token;
    drains_->Enqueue(std::move(job));
    try {
      io = writer_->WriteRank(FastFolder(name), mine, [&](std::size_t file) {
        feed->MarkReady(file);
        if (tuning_.on_file_written) tuning_.on_file_written(mine.files[file].name);
      });
    } catch (const Error& e) {
      local_error = e.what();
    }
  }
  const ContentSettings content{config_.checkpoint.randomize_tensor,
                                CheckpointContentSeed(config_)};
  if (!CommitCheckpoint(comm_, env_, FastFolder(name), plan, content, config_.checkpoint.fsync,
                        local_error.empty())) {
    if (feed) feed->Cancel();
    mpi::AgreeOnFailure(comm_, [&] {
      if (!local_error.empty()) throw Error(ExitCode::kIo, local_error);
    });
  }
  if (feed) feed->Commit();

  Saved saved{name, {}};
  for (const PlannedFile& file : mine.files) saved.own_files.push_back(file.name);
  saved_.push_back(std::move(saved));

  result.bytes = io.bytes;
  result.end = metrics::Now() - origin_;
  return result;
}

StoreOpResult BurstBufferStore::Load(const std::string& name, const CheckpointPlan& plan,
                                     Rank source_rank) {
  StoreOpResult result;
  result.name = name;
  result.start = metrics::Now() - origin_;
  Collect(drains_->TakeFinished());
  const std::string evict_error = EvictDurable();
  // Rank 0 decides for everyone: evictions happen only inside collective calls, so what it sees
  // now holds for every rank until this Load returns.
  std::string where;
  if (comm_.is_root()) {
    try {
      if (IsCheckpointComplete(env_, FastFolder(name))) {
        where = "fast";
      } else if (IsCheckpointComplete(env_, CapacityFolder(name))) {
        where = "capacity";
      }
    } catch (const Error& e) {
      where = std::string("error ") + e.what();
    }
  }
  where = comm_.broadcast(where, 0);
  std::string folder;
  mpi::AgreeOnFailure(comm_, [&] {
    if (!evict_error.empty()) throw Error(ExitCode::kIo, evict_error);
    if (where.starts_with("error ")) throw Error(ExitCode::kIo, where.substr(6));
    if (where.empty()) {
      throw IoError("load checkpoint", name, 0,
                    "neither complete on tier " + tier_name_ + " (" + FastFolder(name) +
                        ") nor durable in the checkpoint folder (" + CapacityFolder(name) +
                        "): no " + kManifestFileName);
    }
    const bool fast = where == "fast";
    folder = fast ? FastFolder(name) : CapacityFolder(name);
    result.tier = fast ? tier_name_ : "checkpoint_folder";
  });
  mpi::AgreeOnFailure(comm_, [&] {
    if (!reader_) {
      ReaderOptions options = ReaderOptions::FromConfig(config_.checkpoint);
      options.buffer_bytes = tuning_.buffer_bytes;
      reader_ = std::make_unique<CheckpointReader>(env_, options);
    }
    result.bytes = reader_->ReadRank(folder, plan.ForRank(source_rank)).bytes;
  });
  result.end = metrics::Now() - origin_;
  return result;
}

std::vector<DrainResult> BurstBufferStore::Finish() {
  Collect(drains_->WaitAll());
  std::string local_error = EvictDurable();
  remover_->WaitIdle();
  const std::string removal_error = remover_->TakeError();
  if (local_error.empty()) local_error = removal_error;
  for (const DrainOutcome& outcome : finished_) {
    if (!outcome.error.empty() && local_error.empty()) {
      local_error = "checkpoint " + outcome.name + " is not durable in " +
                    CapacityFolder(outcome.name) + " (its complete copy stays in " +
                    FastFolder(outcome.name) + "): " + outcome.error;
    }
  }
  // Empty folders go only after every rank has removed its files.
  comm_.barrier();
  if (comm_.is_root()) {
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
