#include "compare/unmeasured.h"

#include <algorithm>

#include "compare/run_set.h"
#include "util/error.h"

namespace dlbench::compare {
namespace {

bool IsZero(const metrics::Json& value) { return value.is_number() && value.get<double>() == 0; }

// Whether the number at `path` is 0 (a list: any of its entries); false when there is none.
bool ZeroAt(const std::string& path, const metrics::Json& summary) {
  if (path.empty()) return false;
  const metrics::Json* node = FindPath(summary, path);
  if (node == nullptr) return false;
  return IsZero(*node) || (node->is_array() && std::any_of(node->begin(), node->end(), IsZero));
}

}  // namespace

std::string UnmeasuredReason(const MetricSpec& spec, const metrics::Json& summary) {
  if (ZeroAt(spec.unmeasured_when_zero, summary)) return spec.unmeasured_reason;
  if (ZeroAt(spec.meaningless_when_zero, summary)) return spec.meaningless_reason;
  return "";
}

bool IsUnmeasured(const MetricSpec& spec, const metrics::Json& summary) {
  return !UnmeasuredReason(spec, summary).empty();
}

std::vector<bool> UnmeasuredEntries(const MetricSpec& spec, const metrics::Json& summary) {
  std::vector<bool> entries;
  if (spec.unmeasured_when_zero.empty()) return entries;
  const metrics::Json* node = FindPath(summary, spec.unmeasured_when_zero);
  if (node == nullptr || !node->is_array()) return entries;
  for (const metrics::Json& value : *node) entries.push_back(IsZero(value));
  return entries;
}

MetricSpec HeadlineMetric(const std::string& path) {
  for (const MetricSpec& spec : HeadlineMetrics()) {
    if (spec.path == path) return spec;
  }
  throw InternalError("no headline metric " + path);
}

}  // namespace dlbench::compare
