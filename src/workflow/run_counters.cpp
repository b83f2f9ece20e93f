#include "workflow/run_counters.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <nlohmann/detail/conversions/to_chars.hpp>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "metrics/json_fields.h"
#include "storage/counts_wire.h"
#include "storage/io_counts.h"
#include "util/json_string.h"
#include "util/sink.h"

namespace dlbench::workflow {
namespace {

using metrics::Json;

Json RecordJson(const storage::FileCounts& record) {
  Json json = Json::object();
  json["file"] = record.path;
  json["rank"] = record.rank;
  json["counters"] = storage::CountsToJson<Json>(record.counts, /*sparse=*/true);
  return json;
}

// A JSON string as the JSON library dumps it (ensure_ascii off): util/json_string.h escapes as it
// does; text with bytes beyond ASCII goes through the library, for its UTF-8 checks.
void AppendString(std::string& out, std::string_view text) {
  if (std::any_of(text.begin(), text.end(), [](char c) { return (c & 0x80) != 0; })) {
    out += Json(std::string(text)).dump();
    return;
  }
  AppendJsonString(out, text);
}

// A counter's value as the JSON library dumps it (its shortest round-trip doubles; null for a
// value that is not finite).
template <class T>
void AppendNumber(std::string& out, T value) {
  char buffer[64];
  char* end = buffer;
  if constexpr (std::is_floating_point_v<T>) {
    if (!std::isfinite(value)) {
      out += "null";
      return;
    }
    end = nlohmann::detail::to_chars(buffer, buffer + sizeof buffer, static_cast<double>(value));
  } else {
    end = std::to_chars(buffer, buffer + sizeof buffer, value).ptr;
  }
  out.append(buffer, end);
}

void AppendCounts(std::string& out, const storage::IoCounts& counts, bool sparse) {
  static const storage::IoCounts kDefaults;
  out += '{';
  bool first = true;
  storage::VisitCounters(
      [&](const char* name, const auto& value, const auto& default_value) {
        if (sparse && value == default_value) return;
        if (!first) out += ',';
        first = false;
        out += '"';
        out += name;  // counter names need no escaping
        out += "\":";
        AppendNumber(out, value);
      },
      counts, kDefaults);
  out += '}';
}

// Every rank's records, as EncodeCounts made them, reduced as Darshan does.
Json ReducedSummary(const std::vector<std::string>& encoded_ranks) {
  std::vector<std::vector<storage::FileCounts>> per_rank;
  storage::IoCounts totals;
  for (const std::string& encoded : encoded_ranks) {
    storage::CountsOfRank rank = storage::DecodeCounts(encoded);
    per_rank.push_back(std::move(rank.files));
    storage::MergeCounts(totals, rank.totals);
  }
  std::vector<storage::FileCounts> reduced = storage::ReduceSharedFiles(per_rank);
  const storage::AggregatePerformance perf = storage::PerformanceBySlowest(reduced);
  const auto shared = static_cast<std::size_t>(std::count_if(
      reduced.begin(), reduced.end(), [](const storage::FileCounts& r) { return r.rank < 0; }));

  Json summary = Json::object();
  Json& counters = summary["posix_counters"];
  counters["records"] = reduced.size();
  counters["shared_files"] = shared;
  counters["unique_records"] = reduced.size() - shared;
  counters["total_bytes"] = perf.bytes;
  counters["agg_time_by_slowest_seconds"] = perf.time_by_slowest;
  metrics::SetNumber(counters, "agg_perf_by_slowest_MiB_per_second",
                     perf.time_by_slowest > 0 ? std::optional(perf.MiB_per_second) : std::nullopt);
  counters["totals"] = storage::CountsToJson<Json>(totals);
  // Each rank's read time over its own records (before the shared-file reduction): the
  // insights' rank_imbalance names the straggler from it.
  Json read_times = Json::array();
  for (const std::vector<storage::FileCounts>& records : per_rank) {
    double seconds = 0;
    for (const storage::FileCounts& record : records) seconds += record.counts.read_time;
    read_times.push_back(seconds);
  }
  counters["read_time_per_rank_seconds"] = std::move(read_times);
  const auto bytes = [](const storage::FileCounts& r) {
    return r.counts.bytes_read + r.counts.bytes_written;
  };
  std::stable_sort(reduced.begin(), reduced.end(),
                   [&](const auto& a, const auto& b) { return bytes(a) > bytes(b); });
  Json top = Json::array();
  for (std::size_t i = 0; i < reduced.size() && i < kTopCounterFiles; ++i) {
    top.push_back(RecordJson(reduced[i]));
  }
  counters["top_files"] = std::move(top);
  if (perf.time_by_slowest > 0) {
    metrics::SetNumber(summary["metric"], "posix_agg_perf_by_slowest_MiB_per_second",
                       perf.MiB_per_second);
  }
  return summary;
}

}  // namespace

std::string RankCountersJson(const storage::CountsOfRank& counts, int rank) {
  std::string out = "{\"rank\":";
  AppendNumber(out, rank);
  out += ",\"totals\":";
  AppendCounts(out, counts.totals, /*sparse=*/false);
  out += ",\"files\":[";
  for (std::size_t i = 0; i < counts.files.size(); ++i) {
    const storage::FileCounts& record = counts.files[i];
    out += i == 0 ? "{\"file\":" : ",{\"file\":";
    AppendString(out, record.path);
    out += ",\"rank\":";
    AppendNumber(out, record.rank);
    out += ",\"counters\":";
    AppendCounts(out, record.counts, /*sparse=*/true);
    out += '}';
  }
  out += "]}\n";
  return out;
}

void WriteRunCounters(const storage::CountingEnv& counting, const mpi::Communicator& comm,
                      RunResults& results, bool quiet) {
  storage::CountsOfRank own{counting.counts(), counting.files()};
  for (storage::FileCounts& record : own.files) record.rank = comm.rank();
  WriteFileAtomically(results.folder() / (std::to_string(comm.rank()) + "_posix_counters.json"),
                      RankCountersJson(own, comm.rank()));
  // Rank 0 gets the records themselves, not the text: parsing it again cost more than the rest.
  const std::vector<std::string> all = comm.gather(storage::EncodeCounts(own));
  if (!comm.is_root()) return;
  const Json summary = ReducedSummary(all);
  results.add(summary);
  if (quiet) return;
  const Json& counters = summary.at("posix_counters");
  const Json& totals = counters.at("totals");
  std::string line = sink::Format(
      "POSIX counters: %zu file records (%zu shared), %.1f MiB read, %.1f MiB written",
      counters.at("records").get<std::size_t>(), counters.at("shared_files").get<std::size_t>(),
      totals.at("POSIX_BYTES_READ").get<double>() / 1048576.0,
      totals.at("POSIX_BYTES_WRITTEN").get<double>() / 1048576.0);
  if (counters.contains("agg_perf_by_slowest_MiB_per_second")) {
    line += sink::Format("; Darshan's rate by slowest rank %.1f MiB/s",
                         counters.at("agg_perf_by_slowest_MiB_per_second").get<double>());
  }
  sink::Result(line + " (summary.json posix_counters, <rank>_posix_counters.json)\n");
}

}  // namespace dlbench::workflow
