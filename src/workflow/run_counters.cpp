#include "workflow/run_counters.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "metrics/json_fields.h"
#include "storage/io_counts.h"
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

std::vector<storage::FileCounts> RecordsFromJson(const Json& rank_file) {
  std::vector<storage::FileCounts> records;
  for (const Json& record : rank_file.at("files")) {
    records.push_back({record.at("file").get<std::string>(), record.at("rank").get<std::int64_t>(),
                       storage::CountsFromJson(record.at("counters"))});
  }
  return records;
}

Json ReducedSummary(const std::vector<std::string>& rank_files) {
  std::vector<std::vector<storage::FileCounts>> per_rank;
  storage::IoCounts totals;
  for (const std::string& text : rank_files) {
    const Json rank_file = Json::parse(text);
    per_rank.push_back(RecordsFromJson(rank_file));
    storage::MergeCounts(totals, storage::CountsFromJson(rank_file.at("totals")));
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

void WriteRunCounters(const storage::CountingEnv& counting, const mpi::Communicator& comm,
                      RunResults& results, bool quiet) {
  Json rank_file = Json::object();
  rank_file["rank"] = comm.rank();
  rank_file["totals"] = storage::CountsToJson<Json>(counting.counts());
  Json files = Json::array();
  for (storage::FileCounts& record : counting.files()) {
    record.rank = comm.rank();
    files.push_back(RecordJson(record));
  }
  rank_file["files"] = std::move(files);
  const std::string text = rank_file.dump() + "\n";
  WriteFileAtomically(results.folder() / (std::to_string(comm.rank()) + "_posix_counters.json"),
                      text);
  const std::vector<std::string> all = comm.gather(text);
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
