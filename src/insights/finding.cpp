#include "insights/finding.h"

#include <cmath>

#include "util/sink.h"

namespace dlbench::insights {

const char* SeverityName(Severity severity) {
  switch (severity) {
    case Severity::kInfo:
      return "info";
    case Severity::kWarning:
      return "warning";
    case Severity::kHigh:
      return "high";
  }
  return "info";
}

std::optional<Severity> ParseSeverity(const std::string& text) {
  for (Severity s : {Severity::kInfo, Severity::kWarning, Severity::kHigh}) {
    if (text == SeverityName(s)) return s;
  }
  return std::nullopt;
}

std::string EvidenceText(const Evidence& evidence) {
  std::string text =
      sink::Format("%s = %.4g %s", evidence.metric.c_str(), evidence.value, evidence.unit.c_str());
  if (evidence.threshold) {
    text += sink::Format(" (threshold %s %.4g)", evidence.comparison.c_str(), *evidence.threshold);
  }
  return text;
}

metrics::Json FindingJson(const Finding& finding) {
  metrics::Json json = metrics::Json::object();
  json["id"] = finding.id;
  json["severity"] = SeverityName(finding.severity);
  json["message"] = finding.message;
  metrics::Json evidence = metrics::Json::array();
  for (const Evidence& e : finding.evidence) {
    metrics::Json item = metrics::Json::object();
    item["metric"] = e.metric;
    metrics::SetNumber(item, "value", e.value);
    item["unit"] = e.unit;
    if (e.threshold && std::isfinite(*e.threshold)) {
      item["threshold"] = *e.threshold;
      item["comparison"] = e.comparison;
    }
    evidence.push_back(std::move(item));
  }
  json["evidence"] = std::move(evidence);
  json["suggestion"] = finding.suggestion;
  return json;
}

std::optional<Finding> FindingFromJson(const metrics::Json& json) {
  if (!json.is_object()) return std::nullopt;
  const auto id = json.find("id");
  const auto severity = json.find("severity");
  if (id == json.end() || !id->is_string() || severity == json.end() || !severity->is_string()) {
    return std::nullopt;
  }
  const std::optional<Severity> parsed = ParseSeverity(severity->get<std::string>());
  if (!parsed) return std::nullopt;
  Finding finding;
  finding.id = id->get<std::string>();
  finding.severity = *parsed;
  finding.message = json.value("message", std::string());
  finding.suggestion = json.value("suggestion", std::string());
  const auto evidence = json.find("evidence");
  if (evidence != json.end() && evidence->is_array()) {
    for (const metrics::Json& item : *evidence) {
      if (!item.is_object()) continue;
      Evidence e;
      e.metric = item.value("metric", std::string());
      e.value = item.value("value", 0.0);
      e.unit = item.value("unit", std::string());
      if (item.contains("threshold") && item["threshold"].is_number()) {
        e.threshold = item["threshold"].get<double>();
        e.comparison = item.value("comparison", std::string());
      }
      finding.evidence.push_back(std::move(e));
    }
  }
  return finding;
}

}  // namespace dlbench::insights
