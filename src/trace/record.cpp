#include "trace/record.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "trace/recorder.h"

namespace dlbench::trace {

namespace detail {

std::atomic<Recorder*> active_recorder{nullptr};

void Record(Recorder& recorder, Event event, std::int64_t start_ns, std::int64_t end_ns,
            const Args& args, std::uint64_t file, std::string_view path) noexcept {
  Slot slot;
  slot.start_ns = start_ns;
  slot.dur_ns = end_ns - start_ns;
  slot.file = file;
  std::copy(args.begin(), args.end(), slot.args);
  slot.event = event;
  recorder.record(slot, path);
}

}  // namespace detail

std::int64_t NsOfSeconds(double steady_seconds) noexcept {
  return static_cast<std::int64_t>(std::llround(steady_seconds * 1e9));
}

std::uint64_t HashPath(std::string_view path) noexcept {
  std::uint64_t hash = 14695981039346656037ULL;
  for (const char c : path) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 1099511628211ULL;
  }
  return hash == 0 ? 1 : hash;
}

bool Sampled(std::uint64_t key) noexcept {
  const Recorder* r = Active();
  return r == nullptr || r->sampled(key);
}

void RecordOnTracks(Event event, std::span<const Interval> intervals) {
  Recorder* r = Active();
  if (r == nullptr) return;
  std::vector<std::int64_t> track_ends;  // per track, the end of its last interval
  std::vector<std::size_t> order(intervals.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return intervals[a].start_seconds < intervals[b].start_seconds;
  });
  for (const std::size_t i : order) {
    const std::int64_t start = NsOfSeconds(intervals[i].start_seconds);
    const std::int64_t end = std::max(start, NsOfSeconds(intervals[i].end_seconds));
    std::size_t track = 0;
    while (track < track_ends.size() && track_ends[track] > start) ++track;
    if (track == track_ends.size()) track_ends.push_back(0);
    track_ends[track] = end;
    Slot slot;
    slot.start_ns = start;
    slot.dur_ns = end - start;
    slot.args[0] = intervals[i].size;
    slot.event = event;
    slot.lane = static_cast<std::uint32_t>(track + 1);
    r->record(slot, {});
  }
}

}  // namespace dlbench::trace
