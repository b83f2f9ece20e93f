#include "workflow/run_counters.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <nlohmann/detail/conversions/to_chars.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "metrics/json_fields.h"
#include "storage/counts_wire.h"
#include "storage/io_counts.h"
#include "trace/gzip_members.h"
#include "util/error.h"
#include "util/file_names.h"
#include "util/json_string.h"
#include "util/path_text.h"
#include "util/sink.h"

namespace dlbench::workflow {
namespace {

using metrics::Json;

Json RecordJson(const storage::FileCounts& record) {
  Json json = Json::object();
  json["file"] = record.path;
  json["rank"] = record.rank;
  if (record.folded_files > 0) json["folded_files"] = record.folded_files;
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

// A record's place among the top files: most bytes read + written first, then by path and rank
// (the order Darshan's reduction leaves them in).
bool HasMoreBytes(const storage::FileCounts& a, const storage::FileCounts& b) {
  const auto bytes = [](const storage::FileCounts& r) {
    return r.counts.bytes_read + r.counts.bytes_written;
  };
  if (bytes(a) != bytes(b)) return bytes(a) > bytes(b);
  if (a.path != b.path) return a.path < b.path;
  return a.rank < b.rank;
}

// Keeps the kTopCounterFiles records with most bytes of `records`.
void KeepTop(std::vector<storage::FileCounts>& records) {
  const std::size_t keep = std::min(records.size(), kTopCounterFiles);
  std::partial_sort(records.begin(), records.begin() + static_cast<std::ptrdiff_t>(keep),
                    records.end(), HasMoreBytes);
  records.resize(keep);
}

// The paths (sorted) that every rank has a record of its own for: Darshan's shared files. Rank
// 0's paths are the only candidates; each rank says which it lacks, in one reduction of a flag per
// candidate. Folded records are never shared.
std::vector<std::string> SharedPaths(const std::vector<storage::FileCounts>& own,
                                     const mpi::Communicator& comm) {
  if (comm.size() < 2) return {};
  std::string joined;
  if (comm.is_root()) {
    for (const storage::FileCounts& record : own) {
      if (record.folded_files > 0) continue;
      joined += record.path;
      joined += '\0';  // no path holds one
    }
  }
  joined = comm.broadcast(joined);
  std::vector<std::string> candidates;
  for (std::size_t at = 0; at < joined.size();) {
    const std::size_t end = joined.find('\0', at);
    candidates.emplace_back(joined, at, end - at);
    at = end + 1;
  }
  std::string().swap(joined);
  std::vector<double> lacks(candidates.size(), 1.0);
  for (const storage::FileCounts& record : own) {
    if (record.folded_files > 0) continue;
    const auto it = std::lower_bound(candidates.begin(), candidates.end(), record.path);
    if (it != candidates.end() && *it == record.path) lacks[it - candidates.begin()] = 0.0;
  }
  lacks = comm.max(lacks);
  std::vector<std::string> shared;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    if (lacks[i] == 0.0) shared.push_back(std::move(candidates[i]));
  }
  return shared;
}

// Every rank's records reduced as Darshan does (storage::ReduceSharedFiles' result, summarised),
// without rank 0 ever holding every rank's records: the shared paths are agreed first, each rank
// sums what its own unique records add (count, I/O time, folded files), and rank 0 receives from
// one rank at a time only its shared records and its kTopCounterFiles unique records with most
// bytes. Collective; the summary on rank 0 (empty elsewhere).
Json ReducedSummary(storage::CountsOfRank own, const mpi::Communicator& comm) {
  const std::vector<std::string> shared_paths = SharedPaths(own.files, comm);
  std::vector<storage::FileCounts> message;  // the shared records, in path order, then the top
  std::vector<storage::FileCounts> unique;
  std::uint64_t unique_records = 0, folded_records = 0, folded_files = 0;
  double unique_time = 0;
  for (storage::FileCounts& record : own.files) {
    const bool shared = record.folded_files == 0 &&
                        std::binary_search(shared_paths.begin(), shared_paths.end(), record.path);
    if (shared) {
      message.push_back(std::move(record));
      continue;
    }
    ++unique_records;
    unique_time += record.counts.io_time();
    if (record.folded_files > 0) {
      ++folded_records;
      folded_files += record.folded_files;
    }
    unique.push_back(std::move(record));
    if (unique.size() >= 4 * kTopCounterFiles) KeepTop(unique);
  }
  std::vector<storage::FileCounts>().swap(own.files);
  KeepTop(unique);
  for (storage::FileCounts& record : unique) message.push_back(std::move(record));
  const double slowest_unique = comm.max(unique_time);
  unique_records = comm.sum(unique_records);
  folded_records = comm.sum(folded_records);
  folded_files = comm.sum(folded_files);

  std::vector<storage::SharedRecord> shared(shared_paths.size());
  std::vector<storage::FileCounts> top;
  storage::IoCounts totals;
  comm.gather_each(storage::EncodeCounts({own.totals, std::move(message)}),
                   [&](int rank, std::string_view bytes) {
                     storage::CountsOfRank received = storage::DecodeCounts(bytes);
                     storage::MergeCounts(totals, received.totals);
                     if (received.files.size() < shared.size()) {
                       throw InternalError("counter records: rank " + std::to_string(rank) +
                                           " sent fewer records than the shared files");
                     }
                     for (std::size_t i = 0; i < shared.size(); ++i) {
                       shared[i].add(rank, received.files[i].counts);
                     }
                     for (std::size_t i = shared.size(); i < received.files.size(); ++i) {
                       top.push_back(std::move(received.files[i]));
                     }
                     KeepTop(top);
                   });
  if (!comm.is_root()) return Json();
  double shared_time = 0;
  for (std::size_t i = 0; i < shared.size(); ++i) {
    storage::FileCounts reduced{shared_paths[i], -1, shared[i].result()};
    shared_time += reduced.counts.slowest_rank_time;
    top.push_back(std::move(reduced));
    KeepTop(top);
  }
  storage::AggregatePerformance perf;
  perf.bytes = totals.bytes_read + totals.bytes_written;
  perf.time_by_slowest = slowest_unique + shared_time;
  if (perf.time_by_slowest > 0) {
    perf.MiB_per_second = static_cast<double>(perf.bytes) / 1048576.0 / perf.time_by_slowest;
  }

  Json summary = Json::object();
  Json& counters = summary["posix_counters"];
  counters["records"] = unique_records + shared.size();
  counters["shared_files"] = shared.size();
  counters["unique_records"] = unique_records;
  counters["folded_records"] = folded_records;
  counters["folded_files"] = folded_files;
  counters["total_bytes"] = perf.bytes;
  counters["agg_time_by_slowest_seconds"] = perf.time_by_slowest;
  metrics::SetNumber(counters, "agg_perf_by_slowest_MiB_per_second",
                     perf.time_by_slowest > 0 ? std::optional(perf.MiB_per_second) : std::nullopt);
  counters["totals"] = storage::CountsToJson<Json>(totals);
  Json top_files = Json::array();
  for (const storage::FileCounts& record : top) top_files.push_back(RecordJson(record));
  counters["top_files"] = std::move(top_files);
  if (perf.time_by_slowest > 0) {
    metrics::SetNumber(summary["metric"], "posix_agg_perf_by_slowest_MiB_per_second",
                       perf.MiB_per_second);
  }
  return summary;
}

// Appends RankCountersJson's text to `out`, record by record; after each record whose text takes
// `out` to `chunk` bytes or more, calls flush(out), which takes what it wants off the front.
template <class Flush>
void AppendRankCounters(std::string& out, const storage::CountsOfRank& counts, int rank,
                        std::size_t chunk, Flush flush) {
  out += "{\"rank\":";
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
    if (record.folded_files > 0) {
      out += ",\"folded_files\":";
      AppendNumber(out, record.folded_files);
    }
    out += ",\"counters\":";
    AppendCounts(out, record.counts, /*sparse=*/true);
    out += '}';
    if (out.size() >= chunk) flush(out);
  }
  out += "]}\n";
}

}  // namespace

std::string RankCountersJson(const storage::CountsOfRank& counts, int rank) {
  std::string out;
  AppendRankCounters(out, counts, rank, std::string::npos, [](std::string&) {});
  return out;
}

std::string RankCountersGzip(const storage::CountsOfRank& counts, int rank) {
  // The text is compressed a member at a time as it is made: a buffer of one member's text
  // (and a record) is reused, where the whole text was ~0.7 KB a record (6 MiB at the default
  // budget) of fresh memory, whose page faults cost more than its compression on a VM.
  trace::GzipCompressor compressor(kCountersGzipLevel);
  std::string bytes, text;
  text.reserve(2 * kCountersMemberBytes);
  const auto compress_members = [&](std::string& pending) {
    std::size_t at = 0;
    for (; pending.size() - at >= kCountersMemberBytes; at += kCountersMemberBytes) {
      bytes += compressor.member(std::string_view(pending).substr(at, kCountersMemberBytes));
    }
    pending.erase(0, at);
  };
  AppendRankCounters(text, counts, rank, kCountersMemberBytes, compress_members);
  compress_members(text);
  if (!text.empty() || bytes.empty()) bytes += compressor.member(text);
  return bytes;
}

std::vector<std::string> CheckpointFolders(const config::Config& config) {
  std::vector<std::string> folders{config.checkpoint.checkpoint_folder};
  const auto& buffer = config.checkpoint.burst_buffer;
  if (buffer && !(config.workflow.stage && config.stage.to == buffer->tier)) {
    if (const config::TierConfig* tier = config.storage.tier_named(buffer->tier)) {
      folders.push_back(tier->path);
    }
  }
  return folders;
}

const std::string* CheckpointFolderHolding(const std::vector<std::string>& folders,
                                           const std::string& path) {
  for (const std::string& folder : folders) {
    if (FolderContains(folder, path)) return &folder;
  }
  return nullptr;
}

void WriteRunCounters(const storage::CountingEnv& counting, const mpi::Communicator& comm,
                      RunResults& results, bool quiet,
                      const std::vector<std::string>& checkpoint_folders) {
  const auto start = std::chrono::steady_clock::now();
  storage::CountsOfRank own{counting.counts(), counting.files()};
  double checkpoint_read_time = 0;
  for (storage::FileCounts& record : own.files) {
    record.rank = comm.rank();
    if (CheckpointFolderHolding(checkpoint_folders, record.path) != nullptr) {
      checkpoint_read_time += record.counts.read_time;
    }
  }
  // Each rank's read time over its own records, before the shared-file reduction, without the
  // checkpoints': the insights' rank_imbalance names the straggler from it.
  const std::vector<double> read_time_per_rank =
      comm.all_gather(std::max(0.0, own.totals.read_time - checkpoint_read_time));
  WriteFileAtomically(
      results.folder() / file_names::RankFile(comm.rank(), file_names::kRankCounters),
      RankCountersGzip(own, comm.rank()));
  // Rank 0 gets the records themselves, not the text: parsing it again cost more than the rest.
  Json summary = ReducedSummary(std::move(own), comm);
  if (!comm.is_root()) return;
  summary["posix_counters"]["read_time_per_rank_seconds"] = read_time_per_rank;
  summary["posix_counters"]["write_seconds"] =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  results.add(summary);
  if (quiet) return;
  const Json& counters = summary.at("posix_counters");
  const Json& totals = counters.at("totals");
  std::string line = sink::Format(
      "POSIX counters: %zu file records (%zu shared), %.1f MiB read, %.1f MiB written",
      counters.at("records").get<std::size_t>(), counters.at("shared_files").get<std::size_t>(),
      totals.at("POSIX_BYTES_READ").get<double>() / 1048576.0,
      totals.at("POSIX_BYTES_WRITTEN").get<double>() / 1048576.0);
  if (const auto folded = counters.at("folded_records").get<std::size_t>(); folded > 0) {
    line += sink::Format(
        "; %zu of them fold ~%zu files beyond profiling.counters_memory_mib (totals exact)", folded,
        counters.at("folded_files").get<std::size_t>());
  }
  if (counters.contains("agg_perf_by_slowest_MiB_per_second")) {
    line += sink::Format("; Darshan's rate by slowest rank %.1f MiB/s",
                         counters.at("agg_perf_by_slowest_MiB_per_second").get<double>());
  }
  sink::Result(line + " (summary.json posix_counters, <rank>_posix_counters.json.gz)\n");
}

}  // namespace dlbench::workflow
