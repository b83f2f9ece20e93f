#include "compare/run_set.h"

#include <glob.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "util/error.h"
#include "util/file_names.h"

namespace dlbench::compare {
namespace fs = std::filesystem;
namespace {

using file_names::kAggregate;  // compare/aggregate.h
using file_names::kSummary;

metrics::Json ReadJson(const fs::path& file) {  // ReadJsonObject
  std::ifstream in(file, std::ios::binary);
  if (!in) throw UsageError("cannot read " + file.string());
  std::ostringstream text;
  text << in.rdbuf();
  try {
    metrics::Json json = metrics::Json::parse(text.str());
    if (json.is_object()) return json;
  } catch (const metrics::Json::exception& error) {
    // parse_error, and out_of_range for a number beyond double's range (1e400)
    throw UsageError(file.string() + " is not valid JSON (" + error.what() + ")");
  }
  throw UsageError(file.string() + " is not a dlbench result file (expected a JSON object)");
}

// The runs an aggregate.json lists, relative to its folder.
void CollectAggregated(const fs::path& folder, std::vector<fs::path>& files) {
  const fs::path file = folder / kAggregate;
  const metrics::Json aggregate = ReadJson(file);
  const auto runs = aggregate.find("runs");
  if (runs == aggregate.end() || !runs->is_array() || runs->empty()) {
    throw UsageError(file.string() + " lists no runs");
  }
  for (const auto& run : *runs) {
    if (!run.is_string()) throw UsageError(file.string() + ": runs must be paths");
    files.push_back(folder / run.get<std::string>());
  }
}

// The summary.json files `path` stands for: itself, the one in the folder, or those below it.
void Collect(const fs::path& path, std::vector<fs::path>& files) {
  std::error_code error;
  if (fs::is_regular_file(path, error)) {
    files.push_back(path);
    return;
  }
  if (!fs::is_directory(path, error)) throw UsageError(path.string() + " does not exist");
  if (fs::is_regular_file(path / kSummary, error)) {
    files.push_back(path / kSummary);
    return;
  }
  if (fs::is_regular_file(path / kAggregate, error)) {
    CollectAggregated(path, files);
    return;
  }
  const std::size_t before = files.size();
  for (fs::recursive_directory_iterator it(path, error), end; !error && it != end;
       it.increment(error)) {
    if (it->is_directory(error) && fs::is_regular_file(it->path() / kAggregate, error)) {
      CollectAggregated(it->path(), files);  // a --repeat folder: its runs, not its generate/
      it.disable_recursion_pending();
    } else if (it->path().filename() == kSummary && it->is_regular_file(error)) {
      files.push_back(it->path());
    }
  }
  if (error) throw UsageError("cannot list " + path.string() + ": " + error.message());
  if (files.size() == before) {
    throw UsageError(path.string() + " holds no " + kSummary + " (expected a run folder, a " +
                     kSummary + " or a folder of runs)");
  }
}

std::vector<fs::path> Expand(const std::string& argument) {
  if (argument.find_first_of("*?[") == std::string::npos) return {argument};
  glob_t matches{};
  const int status = glob(argument.c_str(), 0, nullptr, &matches);
  std::vector<fs::path> paths;
  if (status == 0) {
    for (std::size_t i = 0; i < matches.gl_pathc; ++i) paths.emplace_back(matches.gl_pathv[i]);
  }
  globfree(&matches);
  if (paths.empty()) throw UsageError(argument + " matches no file or folder");
  return paths;
}

}  // namespace

RunSet LoadRunSet(const std::string& argument) {
  std::vector<fs::path> files;
  for (const fs::path& path : Expand(argument)) Collect(path, files);
  std::sort(files.begin(), files.end());
  files.erase(std::unique(files.begin(), files.end()), files.end());
  RunSet set;
  set.argument = argument;
  for (const fs::path& file : files) set.runs.push_back({file.string(), ReadJson(file)});
  return set;
}

metrics::Json ReadJsonObject(const std::string& file) { return ReadJson(file); }

std::string IncompleteRunNote(const metrics::Json& summary) {
  const auto status = summary.find("run_status");
  if (status == summary.end() || !status->is_object()) return "";
  const auto complete = status->find("complete");
  if (complete != status->end() && complete->is_boolean() && complete->get<bool>()) return "";
  const auto text = [&](const char* key) {
    const auto it = status->find(key);
    if (it == status->end() || it->is_null()) return std::string();
    return it->is_string() ? it->get<std::string>() : it->dump();
  };
  const std::string phase = text("phase");
  std::string note = "stopped in phase " + (phase.empty() ? "?" : phase);
  const std::string error = text("error");
  const std::string code = text("exit_code");
  if (error.empty() && code.empty()) return note + " (killed, or still running)";
  if (!error.empty()) note += ": " + error;
  if (!code.empty()) note += " (exit " + code + ")";
  return note;
}

void CheckComplete(const Run& run) {
  const std::string note = IncompleteRunNote(run.summary);
  if (note.empty()) return;
  throw UsageError(run.source + " is the summary of an incomplete run (" + note +
                   "); compare only runs that completed");
}

const metrics::Json* FindPath(const metrics::Json& json, const std::string& path) {
  const metrics::Json* node = &json;
  std::size_t begin = 0;
  while (begin <= path.size()) {
    const std::size_t dot = std::min(path.find('.', begin), path.size());
    const auto it = node->is_object() ? node->find(path.substr(begin, dot - begin)) : node->end();
    if (it == node->end()) return nullptr;
    node = &*it;
    begin = dot + 1;
  }
  return node;
}

std::optional<double> MetricValue(const metrics::Json& summary, const std::string& path,
                                  const std::string& source) {
  const metrics::Json* node = FindPath(summary, path);
  if (!node) return std::nullopt;
  const auto not_a_number = [&] {
    std::string shown = node->dump();
    if (shown.size() > 60) shown = shown.substr(0, 57) + "...";
    return UsageError(source + ": " + path + " is " + shown +
                      ", not a number or a list of numbers");
  };
  if (node->is_number()) return node->get<double>();
  if (!node->is_array() || node->empty()) throw not_a_number();
  double sum = 0;
  for (const auto& item : *node) {
    if (!item.is_number()) throw not_a_number();
    sum += item.get<double>();
  }
  return sum / static_cast<double>(node->size());
}

}  // namespace dlbench::compare
