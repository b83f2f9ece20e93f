// The recorder of one process's trace: per-thread buffers (trace/thread_buffer.h) filled by the
// recording threads through trace/record.h, and one background writer thread that formats the
// events as DFTracer v1 lines (trace/event_formatter.h), compresses them into independent gzip
// members (trace/gzip_members.h) and appends them to the trace file.
//
// Memory is bounded: `buffer_events` slots of 64 bytes per recording thread. When a thread's
// buffer is full because the writer falls behind, the policy decides: kBlock (the default) makes
// the thread wait for room — the run slows down but the trace is complete; kDrop discards the
// event. Both are counted (TraceStats) and reported in summary.json; nothing is lost silently.
//
// Lifetimes: constructing a Recorder makes it the process's active recorder (one at a time).
// Finish() (or the destructor) stops recording and writes the rest. Every thread that records must
// have stopped doing so (joined, or past its last event) before Finish(): the workflow finishes
// the trace after its phases, when the reader, writer and drain threads are gone.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "trace/thread_buffer.h"
#include "util/thread_priority.h"

namespace dlbench::trace {

enum class OverflowPolicy { kBlock, kDrop };

struct RecorderOptions {
  std::string path;           // the trace file, e.g. <run>/trace-0-of-2.pfw.gz
  bool compress = true;       // gzip members; false writes plain text (tests, debugging)
  int compression_level = 3;  // libdeflate 1..9: 3 costs 60 % of 6's CPU for 15 % more bytes
  int rank = 0;
  int ranks = 1;
  std::string hostname;
  // Clock alignment: an event at steady time s gets ts = wall_origin_ns + (s - steady_origin_ns)
  // (written in µs). With both 0, this process's own clocks are paired at construction.
  std::int64_t steady_origin_ns = 0;
  std::int64_t wall_origin_ns = 0;
  // This process's wall clock minus the aligned time base (written as metadata, for the record).
  std::int64_t clock_offset_ns = 0;
  OverflowPolicy policy = OverflowPolicy::kBlock;
  std::size_t buffer_events = std::size_t{1} << 16;  // per thread; rounded up to a power of two
  std::uint64_t sample = 1;                          // keep 1 in `sample` (see record.h Sampled)
  std::vector<std::string> data_dirs;  // absolute path prefixes whose I/O is traced; empty: all
  std::size_t member_bytes = std::size_t{1} << 20;  // text compressed into one gzip member
  std::chrono::milliseconds flush_interval{1000};   // longest a written event waits for its member
  std::chrono::milliseconds poll_interval{10};      // how often the writer looks at the buffers
  std::string version;                              // dlbench's, in the start event
  // The writer thread's CPU priority (profiling.trace_writer_priority; docs/tracing.md, "When the
  // writer falls behind"): kIdle takes only CPU nothing else wants, kLow is nice 10; nullopt
  // leaves it at the process's own.
  std::optional<ThreadPriority> writer_priority = ThreadPriority::kIdle;
  // Starts the writer thread running its argument; empty: std::thread. A seam for tests, which
  // make it throw as std::thread does when the system refuses a thread (std::system_error).
  std::function<std::thread(std::function<void()>)> start_writer;
};

struct TraceStats {
  std::uint64_t events = 0;    // complete events written (metadata lines not counted)
  std::uint64_t dropped = 0;   // events discarded: kDrop with a full buffer, or after a write error
  std::uint64_t blocked = 0;   // events that waited for room (kBlock)
  double blocked_seconds = 0;  // summed over threads
  std::uint64_t threads = 0;   // thread buffers (at most the recording threads alive at once)
  std::uint64_t text_bytes = 0;
  std::uint64_t file_bytes = 0;  // compressed size
  std::uint64_t members = 0;     // gzip members (flushes)
  EventTotals totals;  // of the events written, per kind (summary.json trace.event_totals)
};

class EventFormatter;
class GzipMembers;

class Recorder {
 public:
  // Creates the file and writes "[" and the process metadata; starts the writer thread (running
  // at options.writer_priority when this returns) and becomes the active recorder. Throws
  // Error(kIo) naming the file, Error(kUsage) for a bad option, Error(kInternal) when another
  // recorder is active, and what starting the thread throws; after a throw no recorder is
  // active.
  explicit Recorder(RecorderOptions options);
  ~Recorder();
  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;

  // Waits until the writer has taken every event published before the call out of the buffers
  // (formatted, not necessarily written to the file yet). For benchmarks and tests that keep one
  // recorder; not for hot paths. Returns at once after finish().
  void flush();

  // Stops recording, writes every buffered event, the end event and "]", and closes the file.
  // Throws Error(kIo) if writing the trace failed at any point. Idempotent.
  TraceStats finish();

  const RecorderOptions& options() const { return options_; }
  // Whether I/O on `path` is traced (data_dirs). Relative paths are taken from the working
  // directory at construction; a URI ("s3://bucket/key") is compared as written.
  bool traces_path(std::string_view path) const;
  bool sampled(std::uint64_t key) const;
  // The writer thread's Linux thread id (for its scheduling policy and nice value).
  std::uint32_t writer_thread_id() const { return writer_tid_; }

  // ---- for trace/record.cpp ----
  void record(const Slot& slot, std::string_view path) noexcept;
  void name_thread(std::uint32_t tid, std::string name);
  // A thread that exits hands its buffer back for the next new thread.
  void release(ThreadBuffer* buffer);
  std::uint64_t generation() const { return generation_; }

 private:
  // Stops being the active recorder and the registry's (threads that exit then hand nothing back).
  void unregister() noexcept;
  ThreadBuffer* this_thread_buffer();
  bool wait_for_room(ThreadBuffer& buffer, std::size_t slots) noexcept;
  void wake_writer();
  void writer_loop();
  // Formats every published event of every buffer (or discards them after a failure).
  void drain();
  void flush_member();
  void write_or_fail(const std::function<void()>& write);

  RecorderOptions options_;
  std::uint64_t generation_;
  std::string working_directory_;
  std::unique_ptr<EventFormatter> formatter_;  // writer thread only (after construction)
  std::unique_ptr<GzipMembers> out_;           // writer thread only (after construction)
  std::string text_;                           // pending text of the next member
  std::string path_scratch_;
  std::chrono::steady_clock::time_point last_flush_;

  std::mutex mutex_;  // guards the fields below
  std::condition_variable wake_;
  std::condition_variable started_;   // the writer has set its priority and writer_tid_
  std::condition_variable drained_;   // the writer finished a pass over the buffers
  std::uint64_t passes_started_ = 0;  // the writer's passes over the buffers (flush)
  std::uint64_t passes_done_ = 0;
  std::uint32_t writer_tid_ = 0;  // written once under mutex_ before the constructor returns
  bool wake_requested_ = false;
  bool stopping_ = false;
  std::vector<std::unique_ptr<ThreadBuffer>> buffers_;
  std::vector<std::pair<std::uint32_t, std::string>> pending_names_;

  std::atomic<bool> finishing_{false};
  std::uint64_t lost_ = 0;          // writer thread: events discarded after a failure
  std::exception_ptr write_error_;  // writer thread, read after join
  std::thread writer_;
  bool finished_ = false;
  TraceStats stats_;
};

}  // namespace dlbench::trace
