// Turns recorded events into DFTracer v1 lines: one JSON
// object per line, fields in DFTracer's order `name, cat, pid, tid, ts, dur, ph, args` — without
// DFTracer's per-line `id` (the record's index, which no reader of the trace uses: Perfetto,
// DFAnalyzer and `dlbench trace summary` ignore it; it cost 3.5 compressed bytes per event) —, ts
// and dur in whole microseconds (kGridNs): both ends of an event floored to the µs, so that a
// thread's events nest as recorded in any reader, `args.hhash` and
// `args.fhash` resolved by HH and FH metadata lines, process and thread names as Perfetto's
// `process_name` / `thread_name` metadata. Used by the recorder's writer thread only.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>

#include "trace/event.h"
#include "trace/thread_buffer.h"

namespace dlbench::trace {

struct RecorderOptions;

// Synthetic tracks (record.h RecordOnTracks) get tids from here up.
inline constexpr std::uint32_t kFirstTrackTid = 0x40000000;

class EventFormatter {
 public:
  // Keeps references to nothing: copies what it needs from `options`.
  EventFormatter(const RecorderOptions& options, std::uint32_t pid);

  // "[", the process's metadata (process_name, HH, PR rank / ranks / clock) and the start event.
  void begin(std::string& out, std::uint32_t tid, std::int64_t now_ns);
  // A thread_name line, unless the thread's last one gave the same name.
  void thread_name(std::string& out, std::uint32_t tid, std::string_view name);
  // The line of one event (and an FH line the first time its file's path is seen).
  void complete(std::string& out, const Slot& slot, std::string_view path);
  // The end event (with num_events); the closing "]" is the caller's last line.
  void end(std::string& out, std::uint32_t tid, std::int64_t now_ns);

  std::uint64_t events() const { return events_; }
  // Of the complete events formatted so far, per kind.
  const EventTotals& totals() const { return totals_; }

 private:
  void head(std::string& out, std::string_view name, std::string_view cat, std::uint32_t tid);
  void metadata(std::string& out, std::string_view name, std::uint32_t tid, std::string_view key,
                std::string_view quoted_value);
  // A steady-clock time on the aligned wall-clock base, floored to the grid (ns).
  std::int64_t to_grid(std::int64_t steady_ns) const;
  void times(std::string& out, std::int64_t start_ns, std::int64_t dur_ns) const;
  // DFTracer's start / end event up to its first argument (the caller adds the rest and "}}\n").
  void marker(std::string& out, std::string_view name, std::uint32_t tid, std::int64_t now_ns);

  std::uint32_t pid_;
  std::uint64_t host_hash_;
  std::string hostname_;
  std::string version_;
  int rank_;
  int ranks_;
  std::int64_t clock_offset_ns_;
  std::int64_t steady_origin_ns_;
  std::int64_t wall_origin_ns_;
  std::uint64_t events_ = 0;
  EventTotals totals_;
  // File hashes → the small integers written as fhash (DFTracer v1 writes small integers; a
  // 64-bit hash costs ~1.7 compressed bytes per event more), with whether its FH line was written.
  struct FileId {
    std::uint64_t value = 0;
    bool named = false;
  };
  std::unordered_map<std::uint64_t, FileId> files_;
  std::uint64_t last_file_ = 0;  // the file of the previous event with one, and its `,"fhash":N`
  std::string last_file_text_;
  std::unordered_map<std::uint32_t, std::string> thread_names_;  // as last written, per tid
  // Made once: per event, its line up to the tid's value and its arguments' keys (`,"ret":`);
  // the text between dur and the first argument (`,"ph":"X","args":{"hhash":N`).
  std::array<std::string, kEventCount> heads_;
  std::array<std::array<std::string, kMaxArgs>, kEventCount> arg_keys_;
  std::string complete_args_;
};

// The resolution of ts and dur: whole microseconds, as DFTracer writes them. Integers keep a
// thread's nesting in every reader: Perfetto's JSON importer and Python's json read them as
// integers, and even a double holds µs since 1970 (about 1.8e15) exactly; a fraction of a µs
// does not survive a double.
inline constexpr std::int64_t kGridNs = 1000;
// `ns` floored to a multiple of kGridNs (towards minus infinity).
std::int64_t FloorToGrid(std::int64_t ns);
// Appends `ns`, a multiple of kGridNs, as whole microseconds ("1234").
void AppendMicros(std::string& out, std::int64_t ns);

}  // namespace dlbench::trace
