#include "trace/event_formatter.h"

#include <charconv>
#include <cstring>

#include "trace/record.h"
#include "trace/recorder.h"
#include "util/json_string.h"

namespace dlbench::trace {
namespace {

void AppendUnsigned(std::string& out, std::uint64_t value) {
  char buffer[24];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  out.append(buffer, result.ptr);
}

// Writes one event's line into a fixed buffer (no capacity checks per piece): the line of a
// complete event is at most ~350 bytes — names, categories and argument keys are the event
// table's, numbers at most 20 digits.
class Line {
 public:
  void put(std::string_view text) {
    std::memcpy(at_, text.data(), text.size());
    at_ += text.size();
  }
  void put_int(std::int64_t value) { at_ = std::to_chars(at_, end(), value).ptr; }
  void put_micros(std::int64_t ns) { put_int(ns / kGridNs); }  // ns: a multiple of kGridNs
  std::string_view text() const { return {buffer_, static_cast<std::size_t>(at_ - buffer_)}; }

 private:
  char* end() { return buffer_ + sizeof buffer_; }
  char buffer_[512];
  char* at_ = buffer_;
};

}  // namespace

std::int64_t FloorToGrid(std::int64_t ns) {
  const std::int64_t rest = ns % kGridNs;
  return ns - (rest < 0 ? rest + kGridNs : rest);
}

void AppendMicros(std::string& out, std::int64_t ns) {
  Line line;
  line.put_micros(ns);
  out += line.text();
}

EventFormatter::EventFormatter(const RecorderOptions& options, std::uint32_t pid)
    : pid_(pid),
      host_hash_(HashPath(options.hostname) & 0xffffff),
      hostname_(options.hostname),
      version_(options.version),
      rank_(options.rank),
      ranks_(options.ranks),
      clock_offset_ns_(options.clock_offset_ns),
      steady_origin_ns_(options.steady_origin_ns),
      wall_origin_ns_(options.wall_origin_ns) {
  for (std::size_t e = 0; e < heads_.size(); ++e) {
    const EventInfo& info = Info(static_cast<Event>(e));
    head(heads_[e], info.name, info.category, 0);
    heads_[e].resize(heads_[e].size() - 1);  // up to the tid's value
    for (std::size_t i = 0; i < info.args.size(); ++i) {
      if (info.args[i] != nullptr) arg_keys_[e][i] = std::string(",\"") + info.args[i] + "\":";
    }
  }
  complete_args_ = ",\"ph\":\"X\",\"args\":{\"hhash\":" + std::to_string(host_hash_);
}

void EventFormatter::head(std::string& out, std::string_view name, std::string_view cat,
                          std::uint32_t tid) {
  out += "{\"name\":\"";
  out += name;
  out += "\",\"cat\":\"";
  out += cat;
  out += "\",\"pid\":";
  AppendUnsigned(out, pid_);
  out += ",\"tid\":";
  AppendUnsigned(out, tid);
}

void EventFormatter::metadata(std::string& out, std::string_view name, std::uint32_t tid,
                              std::string_view key, std::string_view quoted_value) {
  head(out, name, "dftracer", tid);
  out += ",\"ph\":\"M\",\"args\":{\"name\":";
  AppendJsonString(out, key);
  out += ",\"value\":";
  out += quoted_value;
  out += "}}\n";
}

std::int64_t EventFormatter::to_grid(std::int64_t steady_ns) const {
  return FloorToGrid(wall_origin_ns_ + (steady_ns - steady_origin_ns_));
}

void EventFormatter::times(std::string& out, std::int64_t start_ns, std::int64_t dur_ns) const {
  // Both ends floored to the grid, so that the events of a thread still nest as they did.
  const std::int64_t start = to_grid(start_ns);
  const std::int64_t end = to_grid(start_ns + dur_ns);
  out += ",\"ts\":";
  AppendMicros(out, start);
  out += ",\"dur\":";
  AppendMicros(out, end - start);
}

void EventFormatter::marker(std::string& out, std::string_view name, std::uint32_t tid,
                            std::int64_t now_ns) {
  head(out, name, "dftracer", tid);
  times(out, now_ns, 0);
  out += ",\"ph\":\"X\",\"args\":{\"hhash\":";
  AppendUnsigned(out, host_hash_);
}

void EventFormatter::begin(std::string& out, std::uint32_t tid, std::int64_t now_ns) {
  out += "[\n";
  std::string value;
  AppendJsonString(value, "process_name");
  metadata(out, "process_name", tid, "Rank " + std::to_string(rank_), value);
  metadata(out, "HH", tid, hostname_, std::to_string(host_hash_));
  value.clear();
  AppendJsonString(value, std::to_string(rank_));
  metadata(out, "PR", tid, "rank", value);
  value.clear();
  AppendJsonString(value, std::to_string(ranks_));
  metadata(out, "PR", tid, "ranks", value);
  // The time base: ts = this rank's steady clock mapped onto rank 0's wall clock at the run's
  // synchronized origin; clock_offset_ns is how far this rank's own wall clock was from it.
  metadata(out, "PR", tid, "clock_offset_ns", std::to_string(clock_offset_ns_));
  metadata(out, "PR", tid, "clock_origin_us", std::to_string(wall_origin_ns_ / 1000));
  marker(out, "start", tid, now_ns);
  out += ",\"version\":";
  AppendJsonString(out, version_);
  out += "}}\n";
}

void EventFormatter::thread_name(std::string& out, std::uint32_t tid, std::string_view name) {
  // Named again with the same name (a thread named by the run and again by its phase): one line.
  const auto [it, added] = thread_names_.try_emplace(tid, name);
  if (!added) {
    if (it->second == name) return;
    it->second = name;
  }
  std::string value;
  AppendJsonString(value, "thread_name");
  metadata(out, "thread_name", tid, name, value);
}

void EventFormatter::complete(std::string& out, const Slot& slot, std::string_view path) {
  std::uint32_t tid = slot.tid;
  if (slot.lane > 0) {
    tid = kFirstTrackTid + slot.lane - 1;
    if (!thread_names_.contains(tid)) {
      thread_name(out, tid, "files-" + std::to_string(slot.lane));
    }
  }
  // A file's id is assigned when it is first seen, its FH line written when its path is (an
  // open recorded on one thread may be drained after a read of the same file on another). A
  // thread's events come in runs on one file (open, reads, close) and are drained a thread at a
  // time: the id is looked up and its text made once per run.
  if (slot.file != 0 && (slot.file != last_file_ || !path.empty())) {
    FileId& file = files_.try_emplace(slot.file, FileId{files_.size() + 1, false}).first->second;
    if (!path.empty() && !file.named) {
      file.named = true;
      metadata(out, "FH", tid, path, std::to_string(file.value));
    }
    if (slot.file != last_file_) {
      last_file_ = slot.file;
      Line text;
      text.put(",\"fhash\":");
      text.put_int(static_cast<std::int64_t>(file.value));
      last_file_text_ = text.text();
    }
  }
  const auto e = static_cast<std::size_t>(slot.event);
  const std::int64_t start = to_grid(slot.start_ns);
  Line line;
  line.put(heads_[e]);
  line.put_int(tid);
  line.put(",\"ts\":");
  line.put_micros(start);
  line.put(",\"dur\":");
  line.put_micros(to_grid(slot.start_ns + slot.dur_ns) - start);
  line.put(complete_args_);
  if (slot.file != 0) line.put(last_file_text_);
  for (std::size_t i = 0; i < kMaxArgs; ++i) {
    if (arg_keys_[e][i].empty()) continue;
    line.put(arg_keys_[e][i]);
    line.put_int(slot.args[i]);
  }
  line.put("}}\n");
  out += line.text();
  ++events_;
  EventTotal& total = totals_[e];
  ++total.count;
  total.dur_ns += slot.dur_ns;
}

void EventFormatter::end(std::string& out, std::uint32_t tid, std::int64_t now_ns) {
  marker(out, "end", tid, now_ns);
  out += ",\"num_events\":";
  AppendUnsigned(out, events_);
  out += "}}\n";
}

}  // namespace dlbench::trace
