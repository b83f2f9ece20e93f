#include "trace_summary/summary_format.h"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

namespace dlbench::trace_summary {
namespace {

using Json = nlohmann::ordered_json;

constexpr double kMiB = 1048576.0;

std::string Format(const char* format, auto... values) {
  char buffer[256];
  std::snprintf(buffer, sizeof buffer, format, values...);
  return buffer;
}

// A byte count (the sketch's values and quantiles are doubles) as the whole number it is.
std::uint64_t WholeBytes(double bytes) {
  return bytes > 0 ? static_cast<std::uint64_t>(std::llround(bytes)) : 0;
}

// Sizes are whole bytes: min, quantiles, max and the total are integers (a quantile is the
// sketch's estimate, rounded); the mean keeps its fraction.
Json SizeJson(const QuantileSketch& sizes) {
  Json json = Json::object();
  json["count"] = sizes.count();
  if (sizes.count() == 0) return json;
  json["total"] = WholeBytes(sizes.sum());
  json["min"] = WholeBytes(sizes.min());
  json["p25"] = WholeBytes(sizes.quantile(0.25));
  json["mean"] = sizes.mean();
  json["median"] = WholeBytes(sizes.quantile(0.5));
  json["p75"] = WholeBytes(sizes.quantile(0.75));
  json["max"] = WholeBytes(sizes.max());
  return json;
}

Json NamesJson(const std::map<std::string, NameStats, std::less<>>& names) {
  Json json = Json::object();
  for (const auto& [name, stats] : names) {
    Json& entry = json[name];
    entry["cat"] = stats.cat;
    entry["count"] = stats.count;
    entry["total_time_seconds"] = stats.total_time;
    entry["total_bytes"] = WholeBytes(stats.sizes.sum());
    entry["size_bytes"] = SizeJson(stats.sizes);
  }
  return json;
}

Json SplitJson(const TimeSplit& split) {
  Json json = Json::object();
  json["wall_seconds"] = split.wall;
  json["compute_seconds"] = split.compute;
  json["io_seconds"] = split.io;
  json["overlap_seconds"] = split.overlap;
  json["compute_only_seconds"] = split.compute_only();
  json["io_only_seconds"] = split.io_only();
  json["other_seconds"] = split.other();
  json["resolution_seconds"] = split.bin_width;
  return json;
}

// Read and write MiB/s for each second from `first` to `last` (seconds without I/O are 0).
Json BandwidthJson(const BandwidthBins& bins, std::int64_t first, std::int64_t last) {
  Json json = Json::object();
  json["read_MiB_per_second"] = MiBPerSecond(bins, first, last, 0);
  json["write_MiB_per_second"] = MiBPerSecond(bins, first, last, 1);
  return json;
}

Json CountersJson(const storage::IoCounts& counts) { return storage::CountsToJson<Json>(counts); }

std::string Bytes(double bytes) {
  if (bytes < 10 * 1024) return Format("%.0f", bytes);
  if (bytes < 10 * kMiB) return Format("%.1fK", bytes / 1024);
  if (bytes < 10 * 1024 * kMiB) return Format("%.1fM", bytes / kMiB);
  return Format("%.1fG", bytes / (1024 * kMiB));
}

void AppendNames(std::string& out, const std::map<std::string, NameStats, std::less<>>& names) {
  out += Format("%-16s %-12s %10s %11s %8s %8s %8s %8s %8s %8s\n", "event", "cat", "count",
                "time (s)", "min", "p25", "mean", "median", "p75", "max");
  for (const auto& [name, stats] : names) {
    out += Format("%-16s %-12s %10" PRIu64 " %11.4f", name.c_str(), stats.cat.c_str(), stats.count,
                  stats.total_time);
    const QuantileSketch& s = stats.sizes;
    if (s.count() > 0) {
      for (double v :
           {s.min(), s.quantile(0.25), s.mean(), s.quantile(0.5), s.quantile(0.75), s.max()}) {
        out += Format(" %8s", Bytes(v).c_str());
      }
    }
    out += "\n";
  }
}

void AppendSplit(std::string& out, const std::string& who, const TimeSplit& s) {
  out += Format("%-6s %10.3f %10.3f %10.3f %10.3f %10.3f %10.3f %10.3f\n", who.c_str(), s.wall,
                s.compute, s.io, s.overlap, s.compute_only(), s.io_only(), s.other());
}

void AppendCounters(std::string& out, const TraceSummary& summary) {
  std::vector<std::pair<std::string, storage::IoCounts>> columns;
  columns.emplace_back("total", summary.counters());
  if (summary.ranks.size() <= 4) {
    for (const auto& [rank, r] : summary.ranks) {
      if (r.has_counters) columns.emplace_back("rank " + std::to_string(rank), r.counters);
    }
  }
  out += Format("%-32s", "counter");
  for (const auto& [title, counts] : columns) out += Format(" %16s", title.c_str());
  out += "\n";
  // The counters' names in Darshan's order; one row each, from every column at once.
  std::vector<std::vector<std::string>> cells(columns.size());
  std::vector<std::string> names;
  for (std::size_t c = 0; c < columns.size(); ++c) {
    storage::VisitCounters(
        [&](const char* name, const auto& value) {
          if (c == 0) names.emplace_back(name);
          using T = std::decay_t<decltype(value)>;
          if constexpr (std::is_same_v<T, double>) {
            cells[c].push_back(Format("%.6f", value));
          } else {
            cells[c].push_back(std::to_string(value));
          }
        },
        columns[c].second);
  }
  for (std::size_t row = 0; row < names.size(); ++row) {
    bool all_zero = true;
    for (const auto& column : cells) {
      if (column[row] != "0" && column[row] != "0.000000") all_zero = false;
    }
    if (all_zero) continue;  // Darshan's parser prints them; a table people read does not
    out += Format("%-32s", names[row].c_str());
    for (const auto& column : cells) out += Format(" %16s", column[row].c_str());
    out += "\n";
  }
}

}  // namespace

std::string Sparkline(const std::vector<double>& values, std::size_t width) {
  static const char* const kLevels[] = {"▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"};
  std::vector<double> points;
  const std::size_t group = std::max<std::size_t>(1, (values.size() + width - 1) / width);
  for (std::size_t i = 0; i < values.size(); i += group) {
    double sum = 0;
    const std::size_t end = std::min(values.size(), i + group);
    for (std::size_t j = i; j < end; ++j) sum += values[j];
    points.push_back(sum / static_cast<double>(end - i));
  }
  const double peak = points.empty() ? 0 : *std::max_element(points.begin(), points.end());
  std::string line;
  for (double v : points) {
    if (v <= 0 || peak <= 0) {
      line += ' ';
    } else {
      line += kLevels[std::clamp(static_cast<int>(std::ceil(v / peak * 8)) - 1, 0, 7)];
    }
  }
  return line;
}

std::string FormatJson(const TraceSummary& summary) {
  Json json = Json::object();
  json["folder"] = summary.folder.string();
  json["ranks"] = summary.ranks.size();
  json["events"] = summary.events;
  json["complete"] = summary.warnings.empty();
  json["warnings"] = summary.warnings;
  json["size_quantiles"] = "log-bucket sketch, within 1% of a value at that rank";
  // ordered_json keeps its members in a vector: build each part, then insert it.
  Json events = Json::object(), split = Json::object(), bandwidth = Json::object();
  events["total"] = NamesJson(summary.names());
  split["total_rank_seconds"] = SplitJson(summary.split());
  const BandwidthBins total = summary.bandwidth();
  const std::int64_t first = total.empty() ? 0 : total.begin()->first;
  const std::int64_t last = total.empty() ? -1 : total.rbegin()->first;
  bandwidth["bin_seconds"] = 1;
  bandwidth["first_second_unix"] = first;
  bandwidth["total"] = BandwidthJson(total, first, last);
  Json per_rank_events = Json::object(), per_rank_split = Json::object(),
       per_rank_bandwidth = Json::object(), per_rank_counters = Json::object();
  for (const auto& [rank, r] : summary.ranks) {
    const std::string key = std::to_string(rank);
    per_rank_events[key] = NamesJson(r.names);
    per_rank_split[key] = SplitJson(r.split);
    per_rank_bandwidth[key] = BandwidthJson(r.bandwidth, first, last);
    if (r.has_counters) per_rank_counters[key] = CountersJson(r.counters);
  }
  events["per_rank"] = std::move(per_rank_events);
  split["per_rank"] = std::move(per_rank_split);
  bandwidth["per_rank"] = std::move(per_rank_bandwidth);
  json["events_by_name"] = std::move(events);
  json["time_split"] = std::move(split);
  json["bandwidth"] = std::move(bandwidth);
  if (summary.has_counters) {
    Json counters = Json::object();
    counters["total"] = CountersJson(summary.counters());
    counters["per_rank"] = std::move(per_rank_counters);
    json["posix_counters"] = std::move(counters);
  }
  return json.dump(2) + "\n";
}

std::string FormatText(const TraceSummary& summary) {
  std::string out;
  out += Format("Trace summary of %s: %zu rank(s), %" PRIu64 " events\n",
                summary.folder.string().c_str(), summary.ranks.size(), summary.events);
  if (summary.has_traces) {
    out += "\nEvents, all ranks (sizes in bytes; quantiles within 1%)\n";
    AppendNames(out, summary.names());
    out += "\nWall time split (seconds; compute and I/O overlap counted once)\n";
    out += Format("%-6s %10s %10s %10s %10s %10s %10s %10s\n", "rank", "wall", "compute", "I/O",
                  "overlap", "comp only", "I/O only", "other");
    for (const auto& [rank, r] : summary.ranks) AppendSplit(out, std::to_string(rank), r.split);
    if (summary.ranks.size() > 1) AppendSplit(out, "sum", summary.split());
    const BandwidthBins total = summary.bandwidth();
    if (!total.empty()) {
      const std::int64_t first = total.begin()->first, last = total.rbegin()->first;
      for (int direction : {0, 1}) {
        const std::vector<double> series = MiBPerSecond(total, first, last, direction);
        const double peak = *std::max_element(series.begin(), series.end());
        if (peak <= 0) continue;
        double sum = 0;
        for (double v : series) sum += v;
        out += Format(
            "\n%s bandwidth per second over %zu s, all ranks: mean %.1f MiB/s, peak "
            "%.1f MiB/s (each line scaled to its own peak)\n",
            direction == 0 ? "Read" : "Write", series.size(),
            sum / static_cast<double>(series.size()), peak);
        out += Format("%-7s |%s|\n", "total", Sparkline(series).c_str());
        if (summary.ranks.size() > 8) continue;  // per rank: --json
        for (const auto& [rank, r] : summary.ranks) {
          const std::string who = "rank " + std::to_string(rank);
          out += Format("%-7s |%s|\n", who.c_str(),
                        Sparkline(MiBPerSecond(r.bandwidth, first, last, direction)).c_str());
        }
      }
    }
  } else {
    out += "\nNo traces in this folder (run with --trace for events and bandwidth over time).\n";
  }
  if (summary.has_counters) {
    out += "\nPOSIX counters (Darshan's names; counters that are 0 everywhere left out)\n";
    AppendCounters(out, summary);
  }
  return out;
}

}  // namespace dlbench::trace_summary
