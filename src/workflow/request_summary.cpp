#include "workflow/request_summary.h"

#include <cstdint>
#include <string>
#include <vector>

#include "metrics/cross_rank.h"
#include "metrics/percentiles.h"
#include "util/error.h"
#include "util/sink.h"

namespace dlbench::workflow {
namespace {

using metrics::Json;

Json PercentileFields(const metrics::LatencyHistogram& histogram) {
  Json out = Json::object();
  const std::optional<metrics::Percentiles> p = histogram.summary();
  if (!p) return out;
  metrics::SetNumber(out, "p50", p->p50);
  metrics::SetNumber(out, "p90", p->p90);
  metrics::SetNumber(out, "p99", p->p99);
  metrics::SetNumber(out, "max", p->max);
  return out;
}

metrics::LatencyHistogram Reduced(const mpi::Communicator& comm,
                                  const std::vector<std::uint64_t>& buckets, double max) {
  const metrics::LatencyHistogram mine = buckets.empty()
                                             ? metrics::LatencyHistogram()
                                             : metrics::LatencyHistogram::FromCounts(buckets, max);
  return metrics::ReduceHistogram(comm, mine);
}

}  // namespace

Json RequestSummary(storage::Env& storage, const mpi::Communicator& comm, bool quiet) {
  const std::vector<storage::RequestCounts> mine = storage.requests();
  if (comm.max(static_cast<std::uint64_t>(mine.size())) !=
      comm.min(static_cast<std::uint64_t>(mine.size()))) {
    throw InternalError("ranks list different kinds of storage requests");
  }
  Json requests = Json::object();
  std::uint64_t total_requests = 0;
  std::uint64_t total_retries = 0;
  std::uint64_t total_failures = 0;
  std::uint64_t total_bytes = 0;
  double total_seconds = 0;
  double total_first_byte = 0;
  std::string line;
  for (const storage::RequestCounts& kind : mine) {
    const std::uint64_t count = comm.sum(kind.requests);
    if (count == 0) continue;
    const std::uint64_t retries = comm.sum(kind.retries);
    const std::uint64_t failures = comm.sum(kind.failures);
    const std::uint64_t bytes = comm.sum(kind.bytes);
    total_requests += count;
    total_retries += retries;
    total_failures += failures;
    total_bytes += bytes;
    total_seconds += comm.sum(kind.seconds);
    total_first_byte += comm.sum(kind.first_byte_seconds);
    const metrics::LatencyHistogram latency = Reduced(comm, kind.latency_buckets, kind.latency_max);
    const metrics::LatencyHistogram first_byte =
        Reduced(comm, kind.first_byte_buckets, kind.first_byte_max);
    Json& out = requests[kind.operation];
    out["requests"] = count;
    out["retries"] = retries;
    out["failures"] = failures;
    out["bytes"] = bytes;
    out["latency_seconds"] = PercentileFields(latency);
    out["first_byte_seconds"] = PercentileFields(first_byte);
    if (const std::optional<metrics::Percentiles> p = latency.summary()) {
      const metrics::Percentiles f = first_byte.summary().value_or(metrics::Percentiles{});
      line += sink::Format("\n  %-24s %9llu %7llu %6llu %9.1f %8.3f %8.3f %8.3f  %8.3f %8.3f %8.3f",
                           kind.operation.c_str(), static_cast<unsigned long long>(count),
                           static_cast<unsigned long long>(retries),
                           static_cast<unsigned long long>(failures),
                           static_cast<double>(bytes) / 1048576.0, 1e3 * p->p50, 1e3 * p->p90,
                           1e3 * p->p99, 1e3 * f.p50, 1e3 * f.p90, 1e3 * f.p99);
    }
  }
  Json summary = Json::object();
  if (!comm.is_root() || total_requests == 0) return summary;
  Json& block = summary["object_storage"];
  block["requests"] = std::move(requests);
  Json& total = block["total"];
  total["requests"] = total_requests;
  total["retries"] = total_retries;
  total["failures"] = total_failures;
  total["bytes"] = total_bytes;
  metrics::SetNumber(total, "request_seconds", total_seconds);
  metrics::SetNumber(total, "first_byte_seconds", total_first_byte);
  if (!quiet) {
    sink::Result(sink::Format("Object storage: %llu requests, %llu retries, %llu failures, "
                              "%.1f MiB (summary.json object_storage)",
                              static_cast<unsigned long long>(total_requests),
                              static_cast<unsigned long long>(total_retries),
                              static_cast<unsigned long long>(total_failures),
                              static_cast<double>(total_bytes) / 1048576.0) +
                 sink::Format("\n  %-24s %9s %7s %6s %9s %8s %8s %8s  %8s %8s %8s", "request",
                              "count", "retries", "failed", "MiB", "p50 ms", "p90 ms", "p99 ms",
                              "TTFB p50", "TTFB p90", "TTFB p99") +
                 line + "\n");
  }
  return summary;
}

}  // namespace dlbench::workflow
