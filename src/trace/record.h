// What instrumented code calls to trace: Span (an RAII complete event), Record (one with explicit
// times), NameThread. All of them do nothing but one atomic load when no Recorder is active, so
// the calls stay in the code of every run. When one is, an event costs two clock reads and a few
// stores into the calling thread's own buffer: no lock, no allocation, no formatting (the
// recorder's writer thread formats and compresses).
//
// Recording is process-wide on purpose: events come from threads the workflow does not own
// (reader pools, checkpoint writers, drains), and threading a recorder through every layer would
// put tracing into every signature. The workflow starts one Recorder per run (trace/recorder.h).
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <span>
#include <string_view>

#include "trace/event.h"

namespace dlbench::trace {

class Recorder;

using Args = std::array<std::int64_t, kMaxArgs>;

namespace detail {
extern std::atomic<Recorder*> active_recorder;
void Record(Recorder& recorder, Event event, std::int64_t start_ns, std::int64_t end_ns,
            const Args& args, std::uint64_t file, std::string_view path) noexcept;
}  // namespace detail

// The recording Recorder, or null when tracing is off.
inline Recorder* Active() noexcept {
  return detail::active_recorder.load(std::memory_order_acquire);
}

// The trace's time source: std::chrono::steady_clock in nanoseconds.
inline std::int64_t NowNs() noexcept {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}
// A steady-clock reading in seconds (metrics::Now()) in nanoseconds.
std::int64_t NsOfSeconds(double steady_seconds) noexcept;

// The file hash of `path` (64-bit FNV-1a, never 0) that events carry; the trace writes a small
// per-process integer for it as `fhash`, named by an FH line.
std::uint64_t HashPath(std::string_view path) noexcept;

// Whether an event keyed by `key` (a path hash, a sample index) is kept by the active recorder's
// sampling (profiling.trace_sample); true without sampling or without a recorder.
bool Sampled(std::uint64_t key) noexcept;

// Records one complete event of the calling thread from `start_ns` to `end_ns` (NowNs() clock).
// `file` is the HashPath of the path the event concerns (0: none); a non-empty `path` is that
// path's text, which the trace writes once as an FH entry (pass it with a file's open).
inline void Record(Event event, std::int64_t start_ns, std::int64_t end_ns, const Args& args = {},
                   std::uint64_t file = 0, std::string_view path = {}) noexcept {
  if (Recorder* r = Active()) detail::Record(*r, event, start_ns, end_ns, args, file, path);
}

// A complete event from construction to destruction on the constructing thread. Spans of one
// thread nest, as Perfetto requires, because they are scoped.
class Span {
 public:
  explicit Span(Event event, const Args& args = {}, bool sampled = true) noexcept
      : recorder_(sampled ? Active() : nullptr), event_(event), args_(args) {
    if (recorder_ != nullptr) start_ = NowNs();
  }
  ~Span() {
    if (recorder_ != nullptr) detail::Record(*recorder_, event_, start_, NowNs(), args_, 0, {});
  }
  Span(const Span&) = delete;
  Span& operator=(const Span&) = delete;

  void set_arg(int index, std::int64_t value) noexcept {
    args_[static_cast<std::size_t>(index)] = value;
  }

 private:
  Recorder* recorder_;
  Event event_;
  Args args_;
  std::int64_t start_ = 0;
};

// Names the calling thread in traces ("reader-3", "drain-0", "trainer"): Perfetto shows it on
// the thread's track. Remembered for recorders started later. Not for hot paths (it locks).
void NameThread(std::string_view name);

// Work that ran across threads (a checkpoint file written in chunks by several writer threads),
// recorded after the fact on synthetic tracks named `track` (then `track-2`, ...): each interval
// goes on the first track free at its start, so the events of a track never overlap.
struct Interval {
  double start_seconds = 0;  // steady clock (metrics::Now())
  double end_seconds = 0;
  std::int64_t size = 0;  // first argument
};
void RecordOnTracks(Event event, std::span<const Interval> intervals);

}  // namespace dlbench::trace
