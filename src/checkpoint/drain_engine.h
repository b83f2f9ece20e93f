// The background half of the burst buffer: copies this rank's files of each complete checkpoint
// from the fast tier to the capacity folder, one checkpoint at a time in save order, through a
// fixed set of reused buffers (threads x buffer_bytes, whatever the checkpoint size; one thread
// appending each file in order where the capacity storage has no random writes), holding the
// state of a window of files in flight (chunk_schedule.h), whatever the number of files: a job's
// files are runs (planned_files.h), and the finisher prints a new save's manifest from its plan.
// Each copied file is fsync'd and published (AtomicFileWriter), then a per-rank marker file says
// "this rank's part is drained". The finisher (one rank) polls for every rank's marker on the
// shared capacity folder, aborts the writes an interrupted earlier drain left pending there
// (Env::abort_pending_writes: an object store's multipart uploads), and then writes the
// checkpoint's manifest there, last: that makes the checkpoint durable. A drain reads only its own
// rank's files on the fast tier, which may be node-local (burst_buffer_store.h). The drain is
// pipelined with the save: a job is enqueued when its save starts and copies each file as soon as
// the writer has published it on the fast tier (a DrainFeed says which), but writes its markers
// only once the fast-tier checkpoint is committed; a save that fails cancels its job, whose copied
// files are then removed. Drain threads never call MPI; a rank that fails writes a failure marker
// so that the finisher stops waiting, and the finisher gives up after a timeout, never hangs.
//
// The capacity side of a new save is prepared here, not by the saving (trainer) thread: before a
// rank replaces its first file there, its drain withdraws the capacity-side manifest of an earlier
// checkpoint of the same name and removes its own old markers; it then overwrites the earlier
// copy of each file in place rather than freeing it. Markers carry the save's token, so
// the finisher never takes a marker left by an earlier save for one of this save, whichever rank's
// drain gets there first. Drain threads run at the lowest priority (util/thread_priority.h).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "checkpoint/checkpoint_writer.h"
#include "checkpoint/drain_markers.h"
#include "checkpoint/manifest.h"
#include "checkpoint/plan.h"
#include "checkpoint/planned_files.h"
#include "storage/file.h"
#include "util/units.h"

namespace dlbench::checkpoint {

// How a save still being written hands its files to its drain job. The saving thread marks each
// file ready once it is complete under its final name on the fast tier, then either commits (the
// fast-tier manifest exists) or cancels (the save failed). Thread-safe.
class DrainFeed {
 public:
  explicit DrainFeed(std::size_t files);
  void mark_ready(std::size_t file);
  // Each settles the save once: the first of the two wins.
  void commit();
  void cancel();
  bool committed() const;

  enum class Wait { kReady, kCancelled, kGaveUp };
  // Blocks until `file` is ready / the save is committed, or the save is cancelled, or
  // `give_up()` (checked every `poll` seconds) is true.
  Wait wait_file(std::size_t file, Seconds poll, const std::function<bool()>& give_up);
  Wait wait_commit(Seconds poll, const std::function<bool()>& give_up);

 private:
  enum class State { kWriting, kCommitted, kCancelled };
  Wait wait_for(const std::function<bool()>& done, Seconds poll,
                const std::function<bool()>& give_up);

  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<bool> ready_;
  State state_ = State::kWriting;
};

struct DrainJob {
  std::string name;             // the checkpoint's folder name
  std::string fast_folder;      // <tier path>/<name>, complete (manifest present)
  std::string capacity_folder;  // <checkpoint_folder>/<name>
  PlannedFiles files;           // what this rank copies, in this order: a few runs
  std::vector<Rank> marks;      // ranks whose drained marker this rank writes when done
  int world = 1;                // the finisher waits for markers of ranks 0..world-1
  bool finisher = false;        // this rank writes the capacity-side manifest
  // Finisher: the capacity-side manifest, the same as the fast tier's. A new save's is printed
  // from its plan when it is written (WritePlannedManifest, with `content`), as the fast-tier
  // commit printed it; without a plan, `manifest` holds its text (a resumed drain's, read back
  // from the fast tier).
  std::shared_ptr<const CheckpointPlan> plan;
  std::string manifest;
  // For backpressure: what the checkpoint holds in the fullest fast-tier folder (all of it on a
  // shared tier, the largest node's share on a node-local one).
  Bytes total_bytes = 0;
  // Null: the checkpoint is complete on the fast tier (a resumed drain). Otherwise the save is
  // still being written; files are copied as the feed marks them ready.
  std::shared_ptr<DrainFeed> feed;
  // The same on every rank for one save (rank 0 draws it). Non-empty: a new save, whose drain
  // prepares the capacity side (see above) and whose finisher takes only markers with this
  // token. Empty: a resumed drain, whose markers of parts drained before the interruption count.
  std::string token;
  // A new save: its content settings, for the content marker of each rank in `marks` (whose
  // files are `files`). Unset for a resumed drain (the interrupted save wrote the marker).
  std::optional<ContentSettings> content;
};

struct DrainOutcome {
  std::string name;
  Seconds start = 0;                  // this rank's copy of its first file began (since the origin)
  Seconds end = 0;                    // its last file fsync'd (its markers follow)
  Bytes bytes = 0;                    // bytes this rank copied
  std::optional<Seconds> durable_at;  // finisher only: when the capacity manifest was committed
  std::string error;                  // empty on success
  bool cancelled = false;             // its save failed: not drained, copied files removed
  // Finisher only: the uploads an interrupted earlier drain left pending in the capacity folder
  // (Env::abort_pending_writes), aborted once every rank's files were drained.
  std::size_t pending_writes_aborted = 0;
};

struct DrainOptions {
  int threads = 2;                                     // checkpoint.burst_buffer.drain_threads
  Bytes buffer_bytes = kDefaultCheckpointBufferBytes;  // per thread, a multiple of 4 KiB
  Seconds origin = 0;                                  // subtracted from metrics::Now()
  // How long the finisher waits for the other ranks' markers after its own part is drained, on
  // top of twice the time its own part took (ranks move similar amounts of bytes).
  Seconds marker_timeout = 600;
  // The longest wait between two looks for what another thread or rank may have done. The
  // finisher's look for other ranks' markers (files, possibly on other nodes) starts at
  // kFirstMarkerPoll and doubles up to this: a fixed 50 ms added up to 50 ms to every save's
  // drain and time to durable, which dominated a small checkpoint's drain rate.
  Seconds poll_interval = 0.05;
};

inline constexpr Seconds kFirstMarkerPoll = 0.001;

class DrainEngine {
 public:
  // Allocates the buffers and starts the coordinating thread. Throws Error(kUsage) for
  // threads < 1 (naming checkpoint.burst_buffer.drain_threads) or a bad buffer size.
  DrainEngine(storage::Env& env, const DrainOptions& options);
  // Abandons the job in progress (its temporary files removed, no marker: the checkpoint stays
  // complete on the fast tier and can be drained again) and joins the threads.
  ~DrainEngine();
  DrainEngine(const DrainEngine&) = delete;
  DrainEngine& operator=(const DrainEngine&) = delete;

  void enqueue(DrainJob job);

  // Holds the jobs enqueued so far (a save is about to be written on this rank:
  // BurstBufferStore::save): until release(), they copy nothing (each thread finishes the chunk in
  // hand and waits before its next one), so that a save never shares the node's cores, memory
  // bandwidth and tmpfs pages with the copies of earlier checkpoints, which over earlier copies
  // of the same names took the saves after the first from 0.15 s to 0.4-2.3 s on 2 cores. Jobs
  // enqueued later (the save's own, which copies its files as they are written) are not held.
  // Markers, the finisher's wait and the manifest are not held. Counted: each hold() needs its
  // release(). Thread-safe.
  void hold();
  void release();

  // Blocks until `room(jobs not finished, their total_bytes)` is true; returns the seconds waited
  // (0 when there was room at once). `on_wait` (tests) runs, under the engine's lock, before a
  // wait.
  Seconds wait_until(const std::function<bool(int pending, Bytes pending_bytes)>& room,
                     const std::function<void()>& on_wait = {});

  // Blocks until every job enqueued so far has finished; returns their outcomes in enqueue order
  // (those not returned by an earlier call).
  std::vector<DrainOutcome> wait_all();
  // The outcomes of jobs finished since the last call, without waiting.
  std::vector<DrainOutcome> take_finished();

 private:
  void run();
  DrainOutcome drain(const DrainJob& job, std::uint64_t sequence);
  // Sets `prepared` once the capacity side was prepared, before replacing the first file there.
  void copy_files(const DrainJob& job, std::uint64_t sequence, DrainOutcome& outcome,
                  bool& prepared);
  // Returns once the job of sequence number `sequence` is not held (or the engine is stopping).
  void wait_unless_held(std::uint64_t sequence);
  void prepare_capacity_side(const DrainJob& job);
  void write_marker(const DrainJob& job, const std::string& file_name, const std::string& text);
  // Whether the marker at `path` exists and belongs to `job` (its token, when the job has one);
  // `body` gets the rest of its text.
  bool has_marker(const DrainJob& job, const std::string& path, std::string* body);
  void await_markers(const DrainJob& job, Seconds own_duration);
  void commit_manifest(const DrainJob& job);
  Seconds now() const;

  storage::Env& env_;
  DrainOptions options_;
  std::vector<storage::AlignedBuffer> buffers_;  // one per thread, reused for every file

  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::pair<std::uint64_t, DrainJob>> queue_;  // with their sequence numbers
  int held_ = 0;                                          // hold() calls not released
  std::uint64_t held_below_ = 0;  // while held, jobs of a lower sequence number wait
  std::uint64_t enqueued_ = 0;    // jobs enqueued so far: the next one's sequence number
  int pending_ = 0;               // enqueued, not finished
  Bytes pending_bytes_ = 0;
  std::vector<DrainOutcome> finished_;
  std::atomic<bool> stopping_{false};
  std::thread thread_;
};

}  // namespace dlbench::checkpoint
