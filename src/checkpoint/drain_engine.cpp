#include "checkpoint/drain_engine.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <mutex>
#include <set>
#include <string_view>
#include <utility>

#include "checkpoint/chunk_schedule.h"
#include "checkpoint/manifest.h"
#include "metrics/clock.h"
#include "storage/atomic_file.h"
#include "trace/record.h"
#include "util/error.h"
#include "util/file_names.h"
#include "util/path_text.h"
#include "util/thread_priority.h"

namespace dlbench::checkpoint {
namespace {

// A marker's first line: "dlbench-drain <token>"; a failure marker's error follows it.
std::string MarkerText(const DrainJob& job, const std::string& body) {
  return "dlbench-drain " + job.token + "\n" + body;
}

// A file being copied: opened by the first thread that needs it (ChunkedFile), both ends at once.
struct CopyEnds {
  std::unique_ptr<storage::ReadableFile> source;
  std::unique_ptr<storage::AtomicFileWriter> target;
  bool reused = false;  // written over the earlier copy of this file
};
using CopiedFile = ChunkedFile<CopyEnds>;

// Thrown inside the copy when the engine is being destroyed.
struct Abandoned {};
// Thrown inside the copy when the job's save failed.
struct Cancelled {};

// Removes what a drain leaves on the capacity side and no longer needs: litter at worst if that
// fails (readers ignore hidden files, and a copy without a manifest is never read).
void RemoveLeftover(storage::Env& env, const std::string& path) {
  try {
    env.remove(path);
  } catch (const std::exception&) {
  }
}

}  // namespace

DrainFeed::DrainFeed(std::size_t files) : ready_(files, false) {}

void DrainFeed::mark_ready(std::size_t file) {
  {
    std::lock_guard lock(mutex_);
    ready_.at(file) = true;
  }
  changed_.notify_all();
}

void DrainFeed::commit() {
  {
    std::lock_guard lock(mutex_);
    if (state_ == State::kWriting) state_ = State::kCommitted;
  }
  changed_.notify_all();
}

void DrainFeed::cancel() {
  {
    std::lock_guard lock(mutex_);
    if (state_ == State::kWriting) state_ = State::kCancelled;
  }
  changed_.notify_all();
}

bool DrainFeed::committed() const {
  std::lock_guard lock(mutex_);
  return state_ == State::kCommitted;
}

DrainFeed::Wait DrainFeed::wait_file(std::size_t file, Seconds poll,
                                     const std::function<bool()>& give_up) {
  return wait_for([&] { return ready_.at(file) || state_ == State::kCommitted; }, poll, give_up);
}

DrainFeed::Wait DrainFeed::wait_commit(Seconds poll, const std::function<bool()>& give_up) {
  return wait_for([&] { return state_ == State::kCommitted; }, poll, give_up);
}

DrainFeed::Wait DrainFeed::wait_for(const std::function<bool()>& done, Seconds poll,
                                    const std::function<bool()>& give_up) {
  std::unique_lock lock(mutex_);
  while (true) {
    // Ready wins over a later cancel: a cancelled save's files are removed by the drain anyway.
    if (done()) return Wait::kReady;
    if (state_ == State::kCancelled) return Wait::kCancelled;
    if (give_up()) return Wait::kGaveUp;
    // Polls because the engine's stop request does not signal this condition variable.
    changed_.wait_for(lock, std::chrono::duration<double>(poll));
  }
}

DrainEngine::DrainEngine(storage::Env& env, const DrainOptions& options)
    : env_(env), options_(options) {
  RequireThreadsAndBuffer(options_.threads, options_.buffer_bytes,
                          "checkpoint.burst_buffer.drain_threads");
  buffers_.reserve(static_cast<std::size_t>(options_.threads));
  for (int t = 0; t < options_.threads; ++t) buffers_.emplace_back(options_.buffer_bytes);
  thread_ = std::thread([this] { run(); });
}

DrainEngine::~DrainEngine() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

Seconds DrainEngine::now() const { return metrics::Now() - options_.origin; }

void DrainEngine::enqueue(DrainJob job) {
  {
    std::lock_guard lock(mutex_);
    ++pending_;
    pending_bytes_ += job.total_bytes;
    queue_.emplace_back(enqueued_++, std::move(job));
  }
  changed_.notify_all();
}

void DrainEngine::hold() {
  std::lock_guard lock(mutex_);
  ++held_;
  held_below_ = enqueued_;
}

void DrainEngine::release() {
  {
    std::lock_guard lock(mutex_);
    if (held_ > 0) --held_;
  }
  changed_.notify_all();
}

void DrainEngine::wait_unless_held(std::uint64_t sequence) {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return held_ == 0 || sequence >= held_below_ || stopping_.load(); });
}

Seconds DrainEngine::wait_until(const std::function<bool(int pending, Bytes pending_bytes)>& room,
                                const std::function<void()>& on_wait) {
  std::unique_lock lock(mutex_);
  if (room(pending_, pending_bytes_)) return 0;
  if (on_wait) on_wait();
  const Seconds start = metrics::Now();
  changed_.wait(lock, [&] { return room(pending_, pending_bytes_); });
  return metrics::Now() - start;
}

std::vector<DrainOutcome> DrainEngine::wait_all() {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return pending_ == 0; });
  std::vector<DrainOutcome> outcomes = std::move(finished_);
  finished_.clear();
  return outcomes;
}

std::vector<DrainOutcome> DrainEngine::take_finished() {
  std::lock_guard lock(mutex_);
  std::vector<DrainOutcome> outcomes = std::move(finished_);
  finished_.clear();
  return outcomes;
}

void DrainEngine::run() {
  LowerThisThread(ThreadPriority::kLowest);
  while (true) {
    DrainJob job;
    std::uint64_t sequence = 0;
    {
      std::unique_lock lock(mutex_);
      changed_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (stopping_) return;
      sequence = queue_.front().first;
      job = std::move(queue_.front().second);
      queue_.pop_front();
    }
    DrainOutcome outcome = drain(job, sequence);
    {
      std::lock_guard lock(mutex_);
      --pending_;
      pending_bytes_ -= job.total_bytes;
      finished_.push_back(std::move(outcome));
    }
    changed_.notify_all();
  }
}

DrainOutcome DrainEngine::drain(const DrainJob& job, std::uint64_t sequence) {
  trace::Span span(trace::Event::kDrain);
  // This rank's files (job.total_bytes is the whole checkpoint's).
  const Bytes own_bytes = job.files.total_bytes();
  span.set_arg(0, static_cast<std::int64_t>(own_bytes));
  DrainOutcome outcome;
  outcome.name = job.name;
  bool prepared = false;
  try {
    copy_files(job, sequence, outcome, prepared);
    if (job.feed) {
      // Markers say "drained" only for a committed checkpoint: a failed save never gets them.
      switch (job.feed->wait_commit(options_.poll_interval, [&] { return stopping_.load(); })) {
        case DrainFeed::Wait::kReady:
          break;
        case DrainFeed::Wait::kCancelled:
          throw Cancelled{};
        case DrainFeed::Wait::kGaveUp:
          throw Abandoned{};
      }
    }
    // A rank without files prepares here: its markers need the folder.
    if (!prepared) prepare_capacity_side(job);
    prepared = true;
    // Before the markers: once one is visible the finisher may commit, so `end` <= durable_at.
    outcome.end = now();
    for (Rank rank : job.marks) {
      write_marker(job, DrainedMarkerName(rank), MarkerText(job, "drained\n"));
    }
    if (job.finisher) {
      await_markers(job, outcome.end - outcome.start);
      // Every rank's files are on the capacity side now: an upload still pending in the folder is
      // an interrupted earlier drain's (a killed job's), which an object store would keep. Before
      // the manifest, as the commit of a direct save: a checkpoint is durable only once they are
      // gone, and a failure here leaves the drain to be resumed.
      outcome.pending_writes_aborted = env_.abort_pending_writes(job.capacity_folder);
      commit_manifest(job);
      outcome.durable_at = now();
      // The markers only served the finisher; the manifest now says it all.
      for (Rank rank = 0; rank < job.world; ++rank) {
        RemoveLeftover(env_, JoinPath(job.capacity_folder, DrainedMarkerName(rank)));
        RemoveLeftover(env_, JoinPath(job.capacity_folder, DrainContentMarkerName(rank)));
      }
    }
  } catch (const Cancelled&) {
    outcome.cancelled = true;
    outcome.error = "save of checkpoint " + job.name +
                    " failed before its fast-tier commit; its drain was cancelled";
    // Every rank's save failed together (the commit is agreed), so no rank waits for markers;
    // the copies made so far are removed (best effort: without a manifest they are never read).
    // Unprepared, the capacity side was not touched: its files may be an earlier durable copy.
    if (prepared) {
      for (std::size_t i = 0; i < job.files.size(); ++i) {
        RemoveLeftover(env_, JoinPath(job.capacity_folder, job.files.name(i)));
      }
      for (Rank rank : job.marks) {
        RemoveLeftover(env_, JoinPath(job.capacity_folder, DrainContentMarkerName(rank)));
      }
    }
  } catch (const Abandoned&) {
    outcome.error = "drain of checkpoint " + job.name + " to " + job.capacity_folder +
                    " abandoned (the store was destroyed before it finished)";
  } catch (const std::exception& e) {
    outcome.error = e.what();
    if (!job.finisher) {
      // Tells the finisher to stop waiting for this rank; best effort, as the capacity side may
      // be what is failing.
      for (Rank rank : job.marks) {
        try {
          write_marker(job, DrainFailedMarkerName(rank), MarkerText(job, outcome.error + "\n"));
        } catch (const std::exception&) {
        }
      }
    }
  }
  if (outcome.start == 0) outcome.start = now();
  if (outcome.end == 0) outcome.end = now();
  return outcome;
}

void DrainEngine::prepare_capacity_side(const DrainJob& job) {
  env_.create_directories(job.capacity_folder);
  if (job.token.empty()) return;  // a resumed drain: the interrupted save prepared it
  // Withdrawn before any file is replaced: an earlier manifest must not vouch for a mix of files.
  env_.remove(JoinPath(job.capacity_folder, file_names::kCheckpointManifest));
  for (Rank rank : job.marks) {
    env_.remove(JoinPath(job.capacity_folder, DrainedMarkerName(rank)));
    env_.remove(JoinPath(job.capacity_folder, DrainFailedMarkerName(rank)));
    env_.remove(JoinPath(job.capacity_folder, DrainContentMarkerName(rank)));
  }
  // Earlier copies leave their final names (to be overwritten in place under the partial one,
  // where the storage can rename and write at offsets; else removed): from here on, a file under
  // its final name is one this drain completed.
  const storage::Capabilities can = env_.capabilities(job.capacity_folder);
  const bool reuse = can.rename && can.random_writes;
  for (std::size_t i = 0; i < job.files.size(); ++i) {
    const std::string path = JoinPath(job.capacity_folder, job.files.name(i));
    if (!env_.exists(path)) continue;
    if (reuse) {
      env_.rename(path, storage::PartialPathFor(path));
    } else {
      env_.remove(path);
    }
  }
  if (!job.content) return;
  for (Rank rank : job.marks) {
    storage::AtomicFileWriter writer(env_,
                                     JoinPath(job.capacity_folder, DrainContentMarkerName(rank)));
    EmitDrainContentText(*job.content, job.name, job.files, [&](std::string_view piece) {
      writer.file().append(piece.data(), piece.size());
    });
    writer.commit(/*fsync=*/true);
  }
}

void DrainEngine::copy_files(const DrainJob& job, std::uint64_t sequence, DrainOutcome& outcome,
                             bool& prepared) {
  const ChunkSchedule schedule(job.files, options_.buffer_bytes);
  // Storage without random writes (an object store) gets each file's chunks in order: one
  // thread, which appends them (the schedule lists a file's chunks by offset, file after file).
  const bool sequential = !env_.capabilities(job.capacity_folder).random_writes;
  FileWindow<CopyEnds> window(FilesInFlight(sequential ? 1 : options_.threads));
  std::atomic<std::uint64_t> next_chunk{0};
  std::atomic<bool> started{false};
  std::mutex prepare_mutex;  // the first file to open prepares the capacity side, once

  ThreadTeam team(sequential ? 1 : options_.threads);
  team.run([&](int thread) {
    if (thread > 0)
      LowerThisThread(ThreadPriority::kLowest);  // thread 0 is the engine's, lowered in Run
    if (trace::Active() != nullptr) trace::NameThread("drain-" + std::to_string(thread));
    storage::AlignedBuffer& buffer = buffers_[static_cast<std::size_t>(thread)];
    window.guard([&] {
      while (!team.stop()) {
        wait_unless_held(sequence);  // a later save is being written: no copy beside it
        if (stopping_.load(std::memory_order_relaxed)) throw Abandoned{};
        const std::uint64_t index = next_chunk.fetch_add(1, std::memory_order_relaxed);
        if (index >= schedule.size()) return;
        const Chunk chunk = schedule.at(index);
        CopiedFile* file = window.enter(chunk.file, [&](CopiedFile& f) {
          f.chunks_left.store(schedule.chunks_in_file(chunk.file), std::memory_order_relaxed);
        });
        if (file == nullptr) return;  // another thread failed; the team is stopping
        const Bytes file_bytes = job.files.bytes(chunk.file);
        storage::ReadableFile* source = nullptr;
        storage::WritableFile* target = nullptr;
        bool reused = false;
        {
          std::lock_guard lock(file->mutex);
          if (!file->open_attempted) {
            if (job.feed) {
              // The writer renames a file into place when it is complete; only then is it copied.
              const DrainFeed::Wait wait = job.feed->wait_file(
                  chunk.file, options_.poll_interval,
                  [&] { return team.stop() || stopping_.load(std::memory_order_relaxed); });
              if (wait == DrainFeed::Wait::kCancelled) throw Cancelled{};
              if (wait == DrainFeed::Wait::kGaveUp) {
                if (stopping_.load(std::memory_order_relaxed)) throw Abandoned{};
                return;  // another thread failed; the team is stopping
              }
            }
            if (!started.exchange(true)) outcome.start = now();
            {
              std::lock_guard prepare_lock(prepare_mutex);
              if (!prepared) {
                prepare_capacity_side(job);
                prepared = true;
              }
            }
            file->open_attempted = true;
            const std::string name = job.files.name(chunk.file);
            auto ends = std::make_unique<CopyEnds>();
            const std::string from = JoinPath(job.fast_folder, name);
            ends->source = env_.open_read(from);
            if (ends->source->size() != file_bytes) {
              throw IoError("drain", from, 0,
                            "size " + std::to_string(ends->source->size()) + " B, expected " +
                                std::to_string(file_bytes) + " B");
            }
            // An earlier copy of this file (its manifest already withdrawn) is overwritten in
            // place, not replaced: replacing it would free its pages, and on a memory-backed tier
            // in a VM a save allocating pages freed just before ran several times slower
            // (docs/checkpointing.md, "What a save does not wait for").
            // (prepare_capacity_side moved it to its partial name.)
            const std::string to = JoinPath(job.capacity_folder, name);
            ends->reused =
                !sequential && !job.token.empty() && env_.exists(storage::PartialPathFor(to));
            ends->target = std::make_unique<storage::AtomicFileWriter>(
                env_, to, storage::OpenOptions{}, ends->reused);
            file->handle = std::move(ends);
          }
          if (!file->handle) return;  // another thread failed to open it; the team is stopping
          source = file->handle->source.get();
          target = &file->handle->target->file();
          reused = file->handle->reused;
        }
        if (chunk.length > 0) {
          void* bytes = buffer.data();
          const Bytes got = source->read_at(chunk.offset, bytes, chunk.length);
          if (got != chunk.length) {
            throw IoError("drain read", source->path(), 0,
                          "short read at offset " + std::to_string(chunk.offset) + ": " +
                              std::to_string(got) + " of " + std::to_string(chunk.length) + " B");
          }
          if (sequential) {
            AppendInOrder(*target, chunk, bytes);
          } else {
            target->write_at(chunk.offset, bytes, chunk.length);
          }
        }
        // Durability is the point of the drain: every file is fsync'd, whatever checkpoint.fsync.
        if (file->chunks_left.fetch_sub(1, std::memory_order_acq_rel) == 1) {
          if (reused) target->truncate(file_bytes);
          file->handle->target->commit(/*fsync=*/true);
          // Published and closed: its handle goes now, and its slot to a later file.
          window.close(chunk.file);
        }
      }
    });
  });
  outcome.bytes = job.files.total_bytes();
}

void DrainEngine::write_marker(const DrainJob& job, const std::string& file_name,
                               const std::string& text) {
  storage::AtomicFileWriter writer(env_, JoinPath(job.capacity_folder, file_name));
  writer.file().append(text.data(), text.size());
  writer.commit(/*fsync=*/true);
}

bool DrainEngine::has_marker(const DrainJob& job, const std::string& path, std::string* body) {
  if (!env_.exists(path)) return false;
  std::string text;
  try {
    text = ReadMarkerText(env_, path);
  } catch (const std::exception&) {
    if (!job.token.empty()) {
      // Removed while read (an earlier save's, being cleared): look again later. One still there
      // cannot be read: that is the error, not a wait until marker_timeout.
      if (!env_.exists(path)) return false;
      throw;
    }
    text = "(its marker " + path + " could not be read)";
  }
  const std::string header = MarkerText(job, "");
  if (text.starts_with(header)) {
    text.erase(0, header.size());
  } else if (!job.token.empty()) {
    return false;  // left by an earlier save of this name
  } else if (text.starts_with("dlbench-drain ")) {
    text.erase(0, text.find('\n') + 1);  // a resumed drain counts the interrupted save's
  }
  while (!text.empty() && text.back() == '\n') text.pop_back();
  if (body != nullptr) *body = text;
  return true;
}

void DrainEngine::await_markers(const DrainJob& job, Seconds own_duration) {
  const Seconds deadline = metrics::Now() + options_.marker_timeout + 2 * own_duration;
  std::set<Rank> waiting;
  for (Rank rank = 0; rank < job.world; ++rank) waiting.insert(rank);
  Seconds poll = std::min(kFirstMarkerPoll, options_.poll_interval);
  while (true) {
    for (auto it = waiting.begin(); it != waiting.end();) {
      std::string reason;
      if (has_marker(job, JoinPath(job.capacity_folder, DrainFailedMarkerName(*it)), &reason)) {
        throw Error(ExitCode::kIo, "drain of checkpoint " + job.name + ": rank " +
                                       std::to_string(*it) + " failed: " + reason);
      }
      if (has_marker(job, JoinPath(job.capacity_folder, DrainedMarkerName(*it)), nullptr)) {
        it = waiting.erase(it);
      } else {
        ++it;
      }
    }
    if (waiting.empty()) return;
    if (metrics::Now() > deadline) {
      throw IoError("drain", job.capacity_folder, 0,
                    "rank " + std::to_string(*waiting.begin()) + " (and " +
                        std::to_string(waiting.size() - 1) + " more) did not mark its part of " +
                        job.name + " drained (" + DrainedMarkerName(*waiting.begin()) +
                        ") in time; the checkpoint is not durable");
    }
    std::unique_lock lock(mutex_);
    changed_.wait_for(lock, std::chrono::duration<double>(poll), [&] { return stopping_.load(); });
    if (stopping_) throw Abandoned{};
    poll = std::min(2 * poll, options_.poll_interval);
  }
}

void DrainEngine::commit_manifest(const DrainJob& job) {
  // The manifest lists every rank's files; each must now be on the capacity side, whole.
  const auto check = [&](const std::string& name, Bytes bytes) {
    const std::string path = JoinPath(job.capacity_folder, name);
    if (!env_.exists(path)) {
      throw IoError("drain", path, 0, "missing after every rank marked its part drained");
    }
    const Bytes size = env_.file_size(path);
    if (size != bytes) {
      throw IoError(
          "drain", path, 0,
          "size " + std::to_string(size) + " B, manifest says " + std::to_string(bytes) + " B");
    }
  };
  if (job.plan) {
    for (Rank r = 0; r < job.plan->world(); ++r) {
      const PlannedFiles files = job.plan->for_rank(r).files;
      for (std::size_t i = 0; i < files.size(); ++i) check(files.name(i), files.bytes(i));
    }
  } else {
    // Checked as the parser meets each entry, none kept.
    ParseManifest(job.manifest, "the manifest of " + job.name + " for " + job.capacity_folder,
                  [&](const ManifestEntry& entry) {
                    check(entry.name, entry.bytes);
                    return false;
                  });
  }
  // The checkpoint folder's own entry in its parent must be durable before the manifest is.
  env_.sync_directory(std::string(ParentFolder(job.capacity_folder)));
  if (job.plan) {
    if (!job.content) throw InternalError("drain of " + job.name + ": a plan without content");
    WritePlannedManifest(env_, job.capacity_folder, *job.plan, *job.content, /*fsync=*/true);
  } else {
    WriteManifestText(env_, job.capacity_folder, job.manifest, /*fsync=*/true);
  }
}

}  // namespace dlbench::checkpoint
