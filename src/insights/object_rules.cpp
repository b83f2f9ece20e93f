// The rules on object storage: request_latency_bound and retries, over RunFacts::object_store
// (summary.json object_storage.total: the requests' times and retries, workflow/request_summary.h).
#include "insights/rules.h"
#include "insights/thresholds.h"
#include "util/sink.h"

namespace dlbench::insights {

std::optional<Finding> RequestLatencyBound(const RunFacts& facts) {
  if (!facts.object_store) return std::nullopt;
  const ObjectStoreFacts& s = *facts.object_store;
  if (s.requests < kObjectMinRequests || s.request_seconds <= 0) return std::nullopt;
  const double share = s.first_byte_seconds / s.request_seconds;
  if (share < kFirstByteShare) return std::nullopt;
  const auto requests = static_cast<double>(s.requests);
  Finding f;
  f.id = "request_latency_bound";
  f.severity = Severity::kWarning;
  f.message = sink::Format(
      "Waiting for the first byte took %.0f %% of the request time (%.1f ms a request over "
      "%.0f requests): latency, not bandwidth, limited the reads.",
      100 * share, 1000 * s.first_byte_seconds / requests, requests);
  f.evidence.push_back(
      {"time to first byte / request time", 100 * share, "%", 100 * kFirstByteShare, ">="});
  f.evidence.push_back(
      {"requests", requests, "requests", static_cast<double>(kObjectMinRequests), ">="});
  f.suggestion =
      "Send more requests at once (reader.read_threads), or fetch larger objects or ranges per "
      "request (larger records, more samples per object).";
  return f;
}

std::optional<Finding> Retries(const RunFacts& facts) {
  if (!facts.object_store || facts.object_store->requests == 0) return std::nullopt;
  const ObjectStoreFacts& s = *facts.object_store;
  const double share = static_cast<double>(s.retries) / static_cast<double>(s.requests);
  if (share < kRetryShare) return std::nullopt;
  Finding f;
  f.id = "retries";
  f.severity = share >= kRetryHighShare ? Severity::kHigh : Severity::kWarning;
  f.message = sink::Format("%llu of %llu requests were retried (%.1f %%): the store throttled.",
                           static_cast<unsigned long long>(s.retries),
                           static_cast<unsigned long long>(s.requests), 100 * share);
  f.evidence.push_back({"retries / requests", 100 * share, "%", 100 * kRetryShare, ">="});
  f.suggestion =
      "Send fewer requests at once (reader.read_threads) or spread objects over more prefixes; "
      "ask for the bucket's request-rate limits.";
  return f;
}

}  // namespace dlbench::insights
