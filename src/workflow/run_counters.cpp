#include "workflow/run_counters.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "metrics/json_fields.h"
#include "storage/counts_wire.h"
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
  storage::CountsOfRank own{counting.counts(), counting.files()};
  for (storage::FileCounts& record : own.files) record.rank = comm.rank();
  Json rank_file = Json::object();
  rank_file["rank"] = comm.rank();
  rank_file["totals"] = storage::CountsToJson<Json>(own.totals);
  Json files = Json::array();
  for (const storage::FileCounts& record : own.files) files.push_back(RecordJson(record));
  rank_file["files"] = std::move(files);
  WriteFileAtomically(results.folder() / (std::to_string(comm.rank()) + "_posix_counters.json"),
                      rank_file.dump() + "\n");
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
