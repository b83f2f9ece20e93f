#include "trace_summary/trace_summary.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>

#include "trace_summary/event_line.h"
#include "trace_summary/line_reader.h"
#include "util/error.h"
#include "util/file_names.h"

namespace dlbench::trace_summary {
namespace {

bool EndsWith(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

bool Contains(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

// Spreads `bytes` over the whole seconds that [start, end) µs spans.
void AddBandwidth(BandwidthBins& bins, int direction, double start_us, double end_us,
                  double bytes) {
  const auto first = static_cast<std::int64_t>(std::floor(start_us / 1e6));
  const auto last = static_cast<std::int64_t>(std::floor(end_us / 1e6));
  if (first == last || !(end_us > start_us)) {
    bins[first][direction] += bytes;
    return;
  }
  for (std::int64_t second = first; second <= last; ++second) {
    const double from = std::max(start_us, static_cast<double>(second) * 1e6);
    const double to = std::min(end_us, static_cast<double>(second + 1) * 1e6);
    if (to > from) bins[second][direction] += bytes * (to - from) / (end_us - start_us);
  }
}

// An event's size in bytes, if it has one.
bool EventSize(const EventLine& event, double& size) {
  if (event.has_ret) {
    size = std::max(0.0, event.ret);
  } else if (event.has_size) {
    size = event.size;
  } else if (event.has_image_size) {
    size = event.image_size;
  } else {
    return false;
  }
  return true;
}

void AddEvent(const EventLine& event, RankSummary& rank) {
  ++rank.events;
  auto it = rank.names.find(event.name);
  if (it == rank.names.end()) {
    it = rank.names.emplace(std::string(event.name), NameStats{}).first;
    it->second.cat = std::string(event.cat);
  }
  NameStats& stats = it->second;
  ++stats.count;
  stats.total_time += event.dur / 1e6;
  double size = 0;
  const bool sized = EventSize(event, size);
  if (sized) stats.sizes.add(size);
  const double end = event.ts + event.dur;
  if (IsComputeCategory(event.cat)) {
    rank.splitter.add(TimeSplitter::kCompute, event.ts, end);
  } else if (IsIoCategory(event.cat)) {
    rank.splitter.add(TimeSplitter::kIo, event.ts, end);
    if (sized && size > 0) {
      if (Contains(event.name, "read")) AddBandwidth(rank.bandwidth, 0, event.ts, end, size);
      if (Contains(event.name, "write")) AddBandwidth(rank.bandwidth, 1, event.ts, end, size);
    }
  } else {
    rank.splitter.span(event.ts, end);
  }
}

// DLIO's name: trace-<rank>-of-<ranks>[-<pid>].pfw[.gz]; -1 if the name does not say (or says a
// rank beyond int).
int RankFromName(const std::string& name) {
  static const std::regex kName(R"(trace-(\d+)-of-\d+.*)");
  std::smatch match;
  int rank = -1;
  if (std::regex_match(name, match, kName)) {
    const std::string digits = match[1].str();
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), rank);
    if (error != std::errc() || end != digits.data() + digits.size()) rank = -1;  // beyond int
  }
  return rank;
}

std::string LineError(const std::string& path, std::uint64_t line, const std::string& what) {
  return path + " line " + std::to_string(line) + ": " + what + " (not a DFTracer trace)";
}

// The JSON text of a counters file: gzip'd (<rank>_posix_counters.json.gz) or plain, as runs before
// wrote it (<rank>_posix_counters.json). Throws Error(kIo) naming the file if a .gz is not gzip,
// is not valid gzip data or is cut short: the file is written whole, so a cut one is damaged.
std::string CountersText(storage::Env& env, const std::string& path) {
  LineReader reader(env, path);
  if (EndsWith(path, ".gz") && !reader.gzip()) {
    throw Error(ExitCode::kIo, path + ": not gzip data (no gzip header at its start)");
  }
  std::string text;
  std::string_view bytes;
  while (reader.next_bytes(bytes)) text += bytes;
  if (!reader.cut().empty()) {
    throw Error(ExitCode::kIo, path + ": not a complete gzip file (" + reader.cut() + ")");
  }
  return text;
}

}  // namespace

std::vector<double> MiBPerSecond(const BandwidthBins& bins, std::int64_t first, std::int64_t last,
                                 int direction) {
  std::vector<double> series;
  for (std::int64_t second = first; second <= last; ++second) {
    const auto it = bins.find(second);
    series.push_back(it == bins.end() ? 0 : it->second[direction] / 1048576.0);
  }
  return series;
}

bool IsComputeCategory(std::string_view cat) { return cat == "compute"; }

bool IsIoCategory(std::string_view cat) {
  return cat == "POSIX" || cat == "STDIO" || cat == "MPIIO" || cat == "MPI-IO" || cat == "HDF5";
}

void SummarizeTrace(storage::Env& env, const std::string& path, RankSummary& rank,
                    std::vector<std::string>& warnings) {
  LineReader reader(env, path);
  std::string_view line;
  std::uint64_t number = 0;
  bool opened = false, closed = false;
  EventLine event;
  while (reader.next(line)) {
    ++number;
    while (!line.empty() && (line.back() == ' ' || line.back() == '\r')) line.remove_suffix(1);
    if (line.empty()) continue;
    if (!opened) {
      if (line != "[") throw Error(ExitCode::kIo, LineError(path, number, "no opening '['"));
      opened = true;
      continue;
    }
    if (line == "]") {
      closed = true;
      continue;
    }
    if (closed)
      throw Error(ExitCode::kIo, LineError(path, number, "an event after the closing ']'"));
    if (!ParseEventLine(line, event)) {
      throw Error(ExitCode::kIo, LineError(path, number, "not a JSON event object"));
    }
    if (event.ph == "X") {
      if (!event.has_ts || !event.has_dur || event.dur < 0) {
        throw Error(ExitCode::kIo, LineError(path, number, "a complete event without ts or dur"));
      }
      AddEvent(event, rank);
    }
  }
  std::string why = reader.cut();
  if (why.empty() && !opened) why = "it holds no events";
  if (why.empty() && !closed) why = "the closing ']' is missing";
  if (!why.empty()) {
    warnings.push_back(path + " is incomplete (" + why +
                       "; the rank may have been killed): "
                       "summarised up to its last complete event");
  }
}

RunFiles ListRunFiles(storage::Env& env, const std::filesystem::path& folder) {
  RunFiles files;
  for (const storage::DirectoryEntry& entry : env.list_directory(folder.string())) {
    if (entry.is_directory) {
      if (entry.name.rfind("run-", 0) == 0) files.run_folders.push_back(entry.name);
      continue;
    }
    const auto is_trace = [&](std::string_view suffix) { return EndsWith(entry.name, suffix); };
    if (std::ranges::any_of(file_names::kTraceSuffixes, is_trace)) {
      files.traces.push_back(entry.name);
    } else if (EndsWith(entry.name, file_names::kRankCounters) ||
               EndsWith(entry.name, file_names::kRankCountersPlain)) {
      files.counters.push_back(entry.name);
    }
  }
  // A plain counters file beside its .gz (one gunzip'd to read it) is the same rank's: read once.
  const std::set<std::string> counters(files.counters.begin(), files.counters.end());
  std::erase_if(files.counters, [&](const std::string& name) {
    return EndsWith(name, file_names::kRankCountersPlain) && counters.contains(name + ".gz");
  });
  return files;
}

TraceSummary SummarizeRun(storage::Env& env, const std::filesystem::path& folder) {
  if (!env.exists(folder.string())) {
    throw UsageError("trace summary: no such run folder: " + folder.string());
  }
  TraceSummary summary;
  summary.folder = folder;
  const auto [traces, counters, run_folders] = ListRunFiles(env, folder);
  if (traces.empty() && counters.empty()) {
    // A `run --repeat` folder holds its runs in run-<i>/: say so rather than only "run with
    // --trace", which the runs may well have been.
    std::string hint;
    if (!run_folders.empty()) {
      hint = "; it holds " + std::to_string(run_folders.size()) +
             " run folder(s) of `run --repeat`: summarise one, e.g. `dlbench trace summary " +
             (folder / *std::min_element(run_folders.begin(), run_folders.end())).string() + "`";
    }
    throw Error(ExitCode::kIo, "trace summary: " + folder.string() +
                                   " holds no traces (trace-*.pfw[.gz]; run with --trace) and no "
                                   "counters files (*_posix_counters.json.gz, or "
                                   "*_posix_counters.json of earlier versions)" +
                                   hint);
  }
  for (std::size_t i = 0; i < traces.size(); ++i) {
    int rank = RankFromName(traces[i]);
    if (rank < 0) rank = static_cast<int>(i);
    RankSummary& rank_summary = summary.ranks[rank];
    rank_summary.rank = rank;
    rank_summary.files.push_back(traces[i]);
    SummarizeTrace(env, (folder / traces[i]).string(), rank_summary, summary.warnings);
    summary.has_traces = true;
  }
  for (auto& [rank, rank_summary] : summary.ranks) {
    rank_summary.split = rank_summary.splitter.result();
    summary.events += rank_summary.events;
  }
  for (const std::string& name : counters) {
    const std::string path = (folder / name).string();
    const std::string text = CountersText(env, path);
    try {
      const nlohmann::json json = nlohmann::json::parse(text);
      // get<int> would wrap 1e12 or -1 into some rank and truncate 1.5 silently.
      const nlohmann::json& rank_value = json.at("rank");
      if (!rank_value.is_number_integer() || rank_value.get<std::int64_t>() < 0 ||
          rank_value.get<std::int64_t>() > std::numeric_limits<int>::max()) {
        throw Error(ExitCode::kIo, path + ": not a dlbench counters file (rank " +
                                       rank_value.dump() + " is not a rank)");
      }
      const int rank = rank_value.get<int>();
      RankSummary& rank_summary = summary.ranks[rank];
      rank_summary.rank = rank;
      rank_summary.counters = storage::CountsFromJson(json.at("totals"));
      rank_summary.has_counters = true;
      summary.has_counters = true;
    } catch (const nlohmann::json::exception& e) {
      throw Error(ExitCode::kIo, path + ": not a dlbench counters file (" + e.what() + ")");
    }
  }
  return summary;
}

std::map<std::string, NameStats, std::less<>> TraceSummary::names() const {
  std::map<std::string, NameStats, std::less<>> all;
  for (const auto& [rank, summary] : ranks) {
    for (const auto& [name, stats] : summary.names) {
      NameStats& into = all[name];
      into.cat = stats.cat;
      into.count += stats.count;
      into.total_time += stats.total_time;
      into.sizes.merge(stats.sizes);
    }
  }
  return all;
}

TimeSplit TraceSummary::split() const {
  TimeSplit total;
  for (const auto& [rank, summary] : ranks) total += summary.split;
  return total;
}

BandwidthBins TraceSummary::bandwidth() const {
  BandwidthBins total;
  for (const auto& [rank, summary] : ranks) {
    for (const auto& [second, bytes] : summary.bandwidth) {
      total[second][0] += bytes[0];
      total[second][1] += bytes[1];
    }
  }
  return total;
}

storage::IoCounts TraceSummary::counters() const {
  storage::IoCounts total;
  for (const auto& [rank, summary] : ranks) {
    if (summary.has_counters) storage::MergeCounts(total, summary.counters);
  }
  return total;
}

}  // namespace dlbench::trace_summary
