#include "report/io_charts.h"

#include <algorithm>
#include <filesystem>
#include <numeric>

#include "compare/run_set.h"
#include "metrics/json_fields.h"
#include "trace_summary/trace_summary.h"
#include "util/error.h"

namespace dlbench::report {
namespace {

// One line of MiB/s from second `first` to `last` of the trace clock, in bins of `width` seconds
// (the mean of their seconds; the last bin may hold fewer), x in seconds since `first`.
Series BandwidthLine(std::string name, const trace_summary::BandwidthBins& bins, std::int64_t first,
                     std::int64_t last, std::size_t width, int direction) {
  const std::vector<double> seconds = trace_summary::MiBPerSecond(bins, first, last, direction);
  Series line{std::move(name), {}, {}};
  for (std::size_t at = 0; at < seconds.size(); at += width) {
    const std::size_t end = std::min(seconds.size(), at + width);
    line.x.push_back(static_cast<double>(at));
    line.y.push_back(std::accumulate(seconds.begin() + static_cast<std::ptrdiff_t>(at),
                                     seconds.begin() + static_cast<std::ptrdiff_t>(end), 0.0) /
                     static_cast<double>(end - at));
  }
  return line;
}

bool AnyBytes(const std::vector<Series>& lines) {
  return !lines.empty() &&
         std::any_of(lines[0].y.begin(), lines[0].y.end(), [](double v) { return v > 0; });
}

void LoadBandwidth(storage::Env& env, const std::filesystem::path& folder, IoData& data) {
  const trace_summary::TraceSummary trace = trace_summary::SummarizeRun(env, folder);
  data.notes.insert(data.notes.end(), trace.warnings.begin(), trace.warnings.end());
  const trace_summary::BandwidthBins total = trace.bandwidth();
  if (total.empty()) return;
  const std::int64_t first = total.begin()->first, last = total.rbegin()->first;
  const auto span = static_cast<std::size_t>(last - first + 1);
  const std::size_t width = (span + kMaxBandwidthPoints - 1) / kMaxBandwidthPoints;
  data.bin_seconds = static_cast<double>(width);
  std::vector<const trace_summary::RankSummary*> ranks;
  for (const auto& [rank, summary] : trace.ranks) {
    if (!summary.files.empty()) ranks.push_back(&summary);
  }
  for (int direction = 0; direction < 2; ++direction) {
    std::vector<Series>& lines = direction == 0 ? data.read : data.write;
    lines.push_back(BandwidthLine("all ranks", total, first, last, width, direction));
    if (ranks.size() > kMaxRankLines) continue;
    for (const trace_summary::RankSummary* rank : ranks) {
      lines.push_back(BandwidthLine("rank " + std::to_string(rank->rank), rank->bandwidth, first,
                                    last, width, direction));
    }
  }
  if (ranks.size() > kMaxRankLines) {
    data.notes.push_back("Bandwidth over time: " + std::to_string(ranks.size()) +
                         " traced ranks, drawn as their total only.");
  }
}

std::string Note(const std::string& text) { return "<p class=\"note\">" + Escape(text) + "</p>\n"; }

std::string Histogram(const std::string& title,
                      const std::array<std::uint64_t, storage::kSizeBuckets>& buckets) {
  std::vector<std::string> names;
  Series counts{"all ranks", {}, {}};
  for (int b = 0; b < storage::kSizeBuckets; ++b) {
    names.emplace_back(storage::SizeBucketSuffix(b));
    counts.y.push_back(static_cast<double>(buckets[static_cast<std::size_t>(b)]));
  }
  return BarChart(title, "accesses", names, {counts});
}

}  // namespace

IoData LoadIoData(storage::Env& env, const compare::Run& run) {
  IoData data;
  if (const metrics::Json* totals = compare::FindPath(run.summary, "posix_counters.totals");
      totals && totals->is_object()) {
    try {
      const storage::IoCounts counts = storage::CountsFromJson(*totals);
      data.size_read = counts.size_read;
      data.size_write = counts.size_write;
      data.has_counters = true;
    } catch (const metrics::Json::exception& e) {
      throw UsageError(run.source + ": posix_counters.totals is not a counters object (" +
                       e.what() + ")");
    }
  }
  const std::filesystem::path folder = std::filesystem::path(run.source).parent_path();
  data.has_trace = !trace_summary::ListRunFiles(env, folder).traces.empty();
  if (data.has_trace) LoadBandwidth(env, folder, data);
  return data;
}

std::string IoCharts(const IoData& data) {
  std::string charts, notes;
  if (!data.has_counters) {
    notes += Note(
        "No POSIX counters in summary.json (a run recorded before dlbench kept them): "
        "no access-size histograms.");
  }
  const auto sum = [](const auto& buckets) {
    return std::accumulate(buckets.begin(), buckets.end(), std::uint64_t{0});
  };
  if (data.has_counters && sum(data.size_read) > 0)
    charts += Histogram("Read access sizes (POSIX_SIZE_READ_*), bytes", data.size_read);
  if (data.has_counters && sum(data.size_write) > 0)
    charts += Histogram("Write access sizes (POSIX_SIZE_WRITE_*), bytes", data.size_write);
  if (!data.has_trace) {
    notes += Note("No trace in this run folder: run with --trace for bandwidth over time.");
  } else if (!AnyBytes(data.read) && !AnyBytes(data.write)) {
    notes += Note("The trace holds no read or write with a size: no bandwidth over time.");
  }
  const std::string bins = std::to_string(static_cast<long>(data.bin_seconds)) + "-s bins";
  if (AnyBytes(data.read))
    charts +=
        LineChart("Read bandwidth over time (trace, " + bins + ")", "seconds", "MiB/s", data.read);
  if (AnyBytes(data.write))
    charts += LineChart("Write bandwidth over time (trace, " + bins + ")", "seconds", "MiB/s",
                        data.write);
  for (const std::string& note : data.notes) notes += Note(note);
  return (charts.empty() ? "" : "<div class=\"charts\">" + charts + "</div>\n") + notes;
}

}  // namespace dlbench::report
