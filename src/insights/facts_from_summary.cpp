#include "insights/facts_from_summary.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "insights/thresholds.h"

namespace dlbench::insights {
namespace {

using metrics::Json;

const Json* Child(const Json& json, const char* key) {
  if (!json.is_object()) return nullptr;
  const auto it = json.find(key);
  return it == json.end() ? nullptr : &*it;
}

std::optional<double> NumberAt(const Json& json, const char* key) {
  const Json* node = Child(json, key);
  if (node == nullptr || !node->is_number()) return std::nullopt;
  return node->get<double>();
}

// A list of numbers; empty when absent or when any element is not a number.
std::vector<double> ListAt(const Json& json, const char* key) {
  const Json* node = Child(json, key);
  std::vector<double> values;
  if (node == nullptr || !node->is_array()) return values;
  for (const Json& v : *node) {
    if (!v.is_number()) return {};
    values.push_back(v.get<double>());
  }
  return values;
}

std::uint64_t CountAt(const Json& json, const char* key) {
  const std::optional<double> value = NumberAt(json, key);
  return value && *value > 0 ? static_cast<std::uint64_t>(*value) : 0;
}

// Darshan's size buckets up to kSmallAccessBytes.
constexpr const char* kSmallBuckets[] = {"0_100", "100_1K", "1K_10K", "10K_100K"};

std::uint64_t SmallAccesses(const Json& counters, const std::string& direction) {
  std::uint64_t small = 0;
  for (const char* bucket : kSmallBuckets) {
    small += CountAt(counters, ("POSIX_SIZE_" + direction + "_" + bucket).c_str());
  }
  return small;
}

void ReadTraining(const Json& metric, RunFacts& facts) {
  facts.train_au_percent = ListAt(metric, "train_au_percentage");
  facts.train_load_loss_points = ListAt(metric, "train_au_loss_load_percentage");
  facts.train_load_seconds = ListAt(metric, "train_load_wait_seconds");
  facts.train_read_seconds = NumberAt(metric, "train_read_seconds");
  facts.eval_read_seconds = NumberAt(metric, "eval_read_seconds");
}

void ReadCounters(const Json& posix, RunFacts& facts) {
  const Json* totals = Child(posix, "totals");
  if (totals != nullptr && totals->is_object()) {
    if (Child(*totals, "POSIX_READS") != nullptr) facts.reads = CountAt(*totals, "POSIX_READS");
    facts.small_reads = SmallAccesses(*totals, "READ");
    facts.bytes_read = NumberAt(*totals, "POSIX_BYTES_READ").value_or(0);
    facts.read_time_seconds = NumberAt(*totals, "POSIX_F_READ_TIME").value_or(0);
    facts.write_time_seconds = NumberAt(*totals, "POSIX_F_WRITE_TIME").value_or(0);
    facts.meta_time_seconds = NumberAt(*totals, "POSIX_F_META_TIME").value_or(0);
  }
  facts.read_time_per_rank_seconds = ListAt(posix, "read_time_per_rank_seconds");
  const Json* top = Child(posix, "top_files");
  if (top == nullptr || !top->is_array()) return;
  for (const Json& record : *top) {
    const std::optional<double> rank = NumberAt(record, "rank");
    const Json* counters = Child(record, "counters");
    const Json* path = Child(record, "file");
    if (!rank || *rank >= 0 || counters == nullptr || path == nullptr || !path->is_string()) {
      continue;
    }
    SharedFileFacts file;
    file.path = path->get<std::string>();
    file.accesses = CountAt(*counters, "POSIX_READS") + CountAt(*counters, "POSIX_WRITES");
    file.small_accesses = SmallAccesses(*counters, "READ") + SmallAccesses(*counters, "WRITE");
    file.bytes = NumberAt(*counters, "POSIX_BYTES_READ").value_or(0) +
                 NumberAt(*counters, "POSIX_BYTES_WRITTEN").value_or(0);
    facts.shared_files.push_back(std::move(file));
  }
}

void ReadCheckpoints(const Json& metric, RunFacts& facts) {
  facts.saves = ListAt(metric, "save_checkpoint_duration_max_seconds").size();
  facts.checkpoint_stall_seconds = NumberAt(metric, "checkpoint_stall_seconds");
  facts.stall_mean_seconds = NumberAt(metric, "checkpoint_stall_mean_seconds");
  facts.time_to_durable_mean_seconds = NumberAt(metric, "checkpoint_time_to_durable_mean_seconds");
  facts.drained = Child(metric, "checkpoint_drained_bytes") != nullptr;
  facts.backpressure_total_seconds =
      NumberAt(metric, "checkpoint_backpressure_total_seconds").value_or(0);
}

// The summed durations of the events named `name` (trace.event_totals), 0 when there is none.
double EventSeconds(const Json& totals, const char* name) {
  const Json* events = Child(totals, name);
  return events == nullptr ? 0 : NumberAt(*events, "seconds").value_or(0);
}

void ReadTrace(const Json& trace, RunFacts& facts) {
  const Json* totals = Child(trace, "event_totals");
  if (totals == nullptr) return;  // a summary.json from before the totals
  TraceFacts& t = facts.trace.emplace();
  t.item_seconds = EventSeconds(*totals, "item");
  t.preprocess_seconds = EventSeconds(*totals, "preprocess");
  t.sample = std::max<std::uint64_t>(CountAt(trace, "sample"), 1);
}

}  // namespace

RunFacts FactsFromSummary(const Json& summary) {
  RunFacts facts;
  facts.ranks = static_cast<int>(NumberAt(summary, "num_accelerators").value_or(1));
  if (const Json* metric = Child(summary, "metric")) {
    ReadTraining(*metric, facts);
    ReadCheckpoints(*metric, facts);
  }
  if (const Json* posix = Child(summary, "posix_counters")) ReadCounters(*posix, facts);
  const std::vector<double> caching = ListAt(summary, "potential_caching");
  facts.page_cache_possible = !caching.empty();
  for (double host : caching) facts.page_cache_possible &= host == 1;
  facts.staged = Child(summary, "stage") != nullptr;
  if (const Json* cache = Child(summary, "page_cache")) {
    const Json* drop = Child(*cache, "drop_caches");
    const Json* odirect = Child(*cache, "odirect");
    facts.cache_bypassed = (drop != nullptr && drop->is_string() && *drop != "none") ||
                           (odirect != nullptr && odirect->is_boolean() && odirect->get<bool>());
  }
  const Json* storage_type = Child(summary, "storage_type");
  facts.object_storage = storage_type != nullptr && *storage_type == "s3";
  if (const Json* trace = Child(summary, "trace")) ReadTrace(*trace, facts);
  if (const Json* object = Child(summary, "object_storage")) {
    if (const Json* total = Child(*object, "total")) {
      ObjectStoreFacts& s = facts.object_store.emplace();
      s.requests = CountAt(*total, "requests");
      s.retries = CountAt(*total, "retries");
      s.request_seconds = NumberAt(*total, "request_seconds").value_or(0);
      s.first_byte_seconds = NumberAt(*total, "first_byte_seconds").value_or(0);
    }
  }
  return facts;
}

}  // namespace dlbench::insights
