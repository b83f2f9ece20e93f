#include "insights/insights.h"

#include <algorithm>
#include <optional>

#include "insights/facts_from_summary.h"
#include "insights/rules.h"

namespace dlbench::insights {
namespace {

using Rule = std::optional<Finding> (*)(const RunFacts&);

// The rules, in the order their findings are listed.
constexpr Rule kRules[] = {
    StorageBound,  PreprocessBound,      FirstEpochSlower, RankImbalance,   SmallReads,
    MetadataBound, SharedFileContention, PageCacheServed,  CheckpointStall, DrainBacklog,
    EvalDominates, RequestLatencyBound,  Retries,
};

// The index of the finding with `id`, or the size of `findings` when there is none.
std::size_t IndexOf(const std::vector<Finding>& findings, const std::string& id) {
  const auto it =
      std::find_if(findings.begin(), findings.end(), [&](const Finding& f) { return f.id == id; });
  return static_cast<std::size_t>(it - findings.begin());
}

const Finding* FindId(const std::vector<Finding>& findings, const std::string& id) {
  const std::size_t i = IndexOf(findings, id);
  return i < findings.size() ? &findings[i] : nullptr;
}

}  // namespace

std::vector<Finding> Evaluate(const RunFacts& facts) {
  std::vector<Finding> findings;
  for (Rule rule : kRules) {
    if (std::optional<Finding> finding = rule(facts)) findings.push_back(std::move(*finding));
  }
  return findings;
}

metrics::Json InsightsPart(const std::vector<Finding>& findings) {
  metrics::Json list = metrics::Json::array();
  for (const Finding& finding : findings) list.push_back(FindingJson(finding));
  metrics::Json part = metrics::Json::object();
  part[kInsightsKey] = std::move(list);
  return part;
}

std::vector<Finding> FindingsOf(const metrics::Json& summary) {
  const auto stored = summary.is_object() ? summary.find(kInsightsKey) : summary.end();
  if (stored == summary.end() || !stored->is_array()) {
    return Evaluate(FactsFromSummary(summary));
  }
  std::vector<Finding> findings;
  for (const metrics::Json& item : *stored) {
    if (std::optional<Finding> finding = FindingFromJson(item)) {
      findings.push_back(std::move(*finding));
    }
  }
  return findings;
}

std::vector<Finding> MergedFindings(const std::vector<std::vector<Finding>>& runs) {
  std::vector<Finding> merged;
  for (const std::vector<Finding>& findings : runs) {
    for (const Finding& f : findings) {
      const std::size_t i = IndexOf(merged, f.id);
      if (i == merged.size()) {
        merged.push_back(f);
      } else if (f.severity > merged[i].severity) {
        merged[i] = f;
      }
    }
  }
  return merged;
}

std::vector<Finding> EvaluateSet(const std::vector<RunFacts>& runs) {
  std::vector<Finding> findings;
  if (std::optional<Finding> finding = PageCacheServedOnRerun(runs)) {
    findings.push_back(std::move(*finding));
  }
  return findings;
}

std::vector<Finding> SetFindings(const std::vector<metrics::Json>& summaries) {
  std::vector<std::vector<Finding>> each;
  std::vector<RunFacts> facts;
  for (const metrics::Json& summary : summaries) {
    each.push_back(FindingsOf(summary));
    facts.push_back(FactsFromSummary(summary));
  }
  each.push_back(EvaluateSet(facts));
  return MergedFindings(each);
}

std::string DifferencesLine(const std::vector<Finding>& before, const std::vector<Finding>& after,
                            const std::string& before_name, const std::string& after_name) {
  const std::vector<std::string> changes = Differences(before, after);
  if (changes.empty()) return "";
  std::string line = "Insights that differ (" + after_name + " against " + before_name + "): ";
  for (std::size_t i = 0; i < changes.size(); ++i) line += (i == 0 ? "" : "; ") + changes[i];
  return line + "\n";
}

std::string TerminalLines(const std::vector<Finding>& findings, Severity minimum) {
  std::string text;
  for (const Finding& f : findings) {
    if (f.severity < minimum) continue;
    text += std::string("  [") + SeverityName(f.severity) + "] " + f.id + ": " + f.message + "\n";
    text += "    try: " + f.suggestion + "\n";
  }
  if (text.empty()) return text;
  return "Insights (evidence and thresholds: summary.json insights, docs/insights.md):\n" + text;
}

std::vector<std::string> Differences(const std::vector<Finding>& before,
                                     const std::vector<Finding>& after) {
  std::vector<std::string> changes;
  for (const Finding& f : after) {
    const Finding* old = FindId(before, f.id);
    if (old == nullptr) {
      changes.push_back(f.id + " appeared (" + SeverityName(f.severity) + ")");
    } else if (old->severity != f.severity) {
      changes.push_back(f.id + " went from " + SeverityName(old->severity) + " to " +
                        SeverityName(f.severity));
    }
  }
  for (const Finding& f : before) {
    if (FindId(after, f.id) == nullptr) changes.push_back(f.id + " disappeared");
  }
  return changes;
}

}  // namespace dlbench::insights
