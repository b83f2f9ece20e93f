#include "sweep/point.h"

#include <algorithm>

#include "util/error.h"

namespace dlbench::sweep {
namespace {

constexpr const char* kVerdictNames[] = {"pass", "fail", "unmeasured", "error"};

Json Optional(const std::optional<double>& value) { return value ? Json(*value) : Json(nullptr); }

std::optional<double> OptionalFrom(const Json& json, const char* key) {
  if (!json.contains(key) || json[key].is_null()) return std::nullopt;
  return json[key].get<double>();
}

double NumberOr(const Json& metric, const char* key, double fallback) {
  return metric.contains(key) && metric[key].is_number() ? metric[key].get<double>() : fallback;
}

}  // namespace

RunOutcome RunOutcomeFromSummary(const Json& summary, const std::string& folder,
                                 const std::string& summary_path) {
  const Json* metric = summary.contains("metric") ? &summary["metric"] : nullptr;
  if (!metric || !metric->contains("train_au_mean_percentage")) {
    throw Error(ExitCode::kIo,
                summary_path + ": no metric.train_au_mean_percentage (did the run train?)");
  }
  RunOutcome run;
  run.folder = folder;
  run.samples_per_second = NumberOr(*metric, "train_throughput_mean_samples_per_second", 0);
  run.read_MiB_per_second = NumberOr(*metric, "train_read_MiB_per_second", 0);
  bool measured = true;
  if (metric->contains("train_au_measured_steps")) {
    for (const Json& steps : (*metric)["train_au_measured_steps"]) {
      measured = measured && steps.get<std::uint64_t>() > 0;
    }
  }
  if (measured) run.au_percent = (*metric)["train_au_mean_percentage"].get<double>();
  return run;
}

const char* VerdictName(Verdict verdict) { return kVerdictNames[static_cast<int>(verdict)]; }

Verdict VerdictFromName(const std::string& name) {
  for (int i = 0; i < 4; ++i) {
    if (name == kVerdictNames[i]) return static_cast<Verdict>(i);
  }
  throw UsageError("sweep.json: unknown verdict '" + name + "'");
}

double Median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

void Judge(PointResult& point, double threshold_percent) {
  std::vector<double> au, samples, read;
  bool failed = false, unmeasured = false;
  point.error.clear();
  for (const RunOutcome& run : point.runs) {
    if (run.exit_code != 0) {
      if (!failed) point.error = run.error;
      failed = true;
      continue;
    }
    samples.push_back(run.samples_per_second);
    read.push_back(run.read_MiB_per_second);
    if (run.au_percent) {
      au.push_back(*run.au_percent);
    } else {
      unmeasured = true;
    }
  }
  point.samples_per_second = Median(samples);
  point.read_MiB_per_second = Median(read);
  point.au_median_percent.reset();
  point.au_min_percent.reset();
  point.au_max_percent.reset();
  if (!au.empty() && !failed && !unmeasured) {
    point.au_median_percent = Median(au);
    point.au_min_percent = *std::min_element(au.begin(), au.end());
    point.au_max_percent = *std::max_element(au.begin(), au.end());
  }
  if (failed || point.runs.empty()) {
    point.verdict = Verdict::kError;
  } else if (unmeasured) {
    point.verdict = Verdict::kUnmeasured;
  } else {
    point.verdict = *point.au_median_percent >= threshold_percent ? Verdict::kPass : Verdict::kFail;
  }
}

Json PointToJson(const PointResult& point) {
  Json grid = Json::object();
  for (const GridValue& value : point.grid) grid[value.key] = value.value;
  Json runs = Json::array();
  for (const RunOutcome& run : point.runs) {
    runs.push_back({{"folder", run.folder},
                    {"exit_code", run.exit_code},
                    {"error", run.error.empty() ? Json(nullptr) : Json(run.error)},
                    {"au_percentage", Optional(run.au_percent)},
                    {"samples_per_second", run.samples_per_second},
                    {"read_MiB_per_second", run.read_MiB_per_second}});
  }
  return {{"grid", grid},
          {"accelerators", point.accelerators},
          {"folder", point.folder},
          {"verdict", VerdictName(point.verdict)},
          {"au_median_percentage", Optional(point.au_median_percent)},
          {"au_min_percentage", Optional(point.au_min_percent)},
          {"au_max_percentage", Optional(point.au_max_percent)},
          {"samples_per_second", point.samples_per_second},
          {"read_MiB_per_second", point.read_MiB_per_second},
          {"error", point.error.empty() ? Json(nullptr) : Json(point.error)},
          {"runs", runs}};
}

PointResult PointFromJson(const Json& json) {
  try {
    PointResult point;
    for (const auto& [key, value] : json.at("grid").items()) {
      point.grid.push_back({key, value.get<std::string>()});
    }
    point.accelerators = json.at("accelerators").get<int>();
    point.folder = json.at("folder").get<std::string>();
    point.verdict = VerdictFromName(json.at("verdict").get<std::string>());
    point.au_median_percent = OptionalFrom(json, "au_median_percentage");
    point.au_min_percent = OptionalFrom(json, "au_min_percentage");
    point.au_max_percent = OptionalFrom(json, "au_max_percentage");
    point.samples_per_second = json.at("samples_per_second").get<double>();
    point.read_MiB_per_second = json.at("read_MiB_per_second").get<double>();
    if (!json.at("error").is_null()) point.error = json.at("error").get<std::string>();
    for (const Json& entry : json.at("runs")) {
      RunOutcome run;
      run.folder = entry.at("folder").get<std::string>();
      run.exit_code = entry.at("exit_code").get<int>();
      if (!entry.at("error").is_null()) run.error = entry.at("error").get<std::string>();
      run.au_percent = OptionalFrom(entry, "au_percentage");
      run.samples_per_second = entry.at("samples_per_second").get<double>();
      run.read_MiB_per_second = entry.at("read_MiB_per_second").get<double>();
      point.runs.push_back(run);
    }
    return point;
  } catch (const nlohmann::json::exception& error) {
    throw UsageError(std::string("sweep.json: a point is not as dlbench writes it: ") +
                     error.what());
  }
}

}  // namespace dlbench::sweep
