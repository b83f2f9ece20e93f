#include "config/workload_catalog.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <system_error>

#include "util/error.h"

#ifndef DLBENCH_SOURCE_WORKLOADS
#define DLBENCH_SOURCE_WORKLOADS ""
#endif

namespace dlbench::config {
namespace fs = std::filesystem;

namespace {

std::string FirstCommentLine(const fs::path& path) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind('#', 0) == 0) {
      auto text = line.substr(line.find_first_not_of("# ") == std::string::npos
                                  ? line.size()
                                  : line.find_first_not_of("# "));
      if (!text.empty()) return text;
    } else if (!line.empty()) {
      break;
    }
  }
  return "";
}

bool IsYaml(const fs::path& path) {
  return path.extension() == ".yaml" || path.extension() == ".yml";
}

}  // namespace

bool IsHydraTopLevelConfig(const fs::path& path) {
  YAML::Node root;
  try {
    root = YAML::LoadFile(path.string());
  } catch (const YAML::Exception&) {
    return false;  // not readable as YAML: loading it says what is wrong
  }
  if (!root.IsMap() || !root["defaults"] || !root["defaults"].IsSequence()) return false;
  for (const char* section : {"model", "framework", "workflow", "dataset", "reader", "train",
                              "evaluation", "checkpoint", "output", "profiling"}) {
    if (root[section]) return false;
  }
  return true;
}

WorkloadCatalog::WorkloadCatalog(std::vector<std::string> config_dirs, std::string workloads_dir) {
  for (const auto& dir : config_dirs) {
    // A mistyped --config-dir fell through to the shipped workload of the same name: the run
    // used another file than the one the user edited, without a word.
    std::error_code error;
    if (!fs::is_directory(dir, error)) {
      throw UsageError("--config-dir " + dir + ": no such folder");
    }
    folders_.emplace_back(dir);
    folders_.emplace_back(fs::path(dir) / "workload");
  }
  if (!workloads_dir.empty()) folders_.emplace_back(workloads_dir);
}

fs::path WorkloadCatalog::resolve(const std::string& workload) const {
  std::string name = workload;
  if (name.rfind("workload=", 0) == 0) name = name.substr(9);
  if (name.empty())
    throw UsageError("no workload given: pass a name (see `dlbench workloads`) or a YAML file");
  std::error_code error;
  if (fs::is_regular_file(name, error)) return name;
  if (fs::is_directory(name, error)) {
    throw UsageError("workload file '" + name +
                     "' is a folder; give a YAML file or a workload name");
  }
  if (fs::exists(name, error)) {  // /dev/null, a FIFO: said "does not exist" before
    throw UsageError("workload file '" + name +
                     "' is not a regular file (a device, FIFO or socket); give a YAML file");
  }
  if (name.find('/') != std::string::npos || IsYaml(name)) {
    throw UsageError("workload file '" + name + "' does not exist");
  }
  for (const auto& folder : folders_) {
    for (const char* extension : {".yaml", ".yml"}) {
      const fs::path candidate = folder / (name + extension);
      if (!fs::is_regular_file(candidate, error)) continue;
      if (IsHydraTopLevelConfig(candidate)) {
        throw UsageError(candidate.string() +
                         " is Hydra's top-level configuration (a `defaults:` list, no workload "
                         "sections), not a workload; name one of the workloads in " +
                         (folder / "workload").string() + " (`dlbench workloads --config-dir " +
                         folder.string() + "` lists them)");
      }
      return candidate;
    }
  }
  std::vector<std::string> names;
  for (const auto& entry : list()) names.push_back(entry.name);
  std::string message = "unknown workload '" + name + "'";
  const auto close = ClosestMatch(name, names);
  if (close) message += "; did you mean " + *close + "?";
  std::string looked;
  for (const auto& folder : folders_) {
    if (fs::is_directory(folder, error)) looked += " " + folder.string();
  }
  if (looked.empty()) {  // was "Looked in:." with DLBENCH_WORKLOADS_DIR set to a missing folder
    message += ": there is no workload folder";
    if (const char* env = std::getenv("DLBENCH_WORKLOADS_DIR"); env && *env) {
      message += " (DLBENCH_WORKLOADS_DIR=" + std::string(env) + " is not a folder)";
    }
    message += "; give a path to a YAML file or --config-dir DIR.";
  } else {
    // Without a suggestion the sentence ran on: "unknown workload 'nosuch' Looked in: ...".
    message += (close ? " Looked in:" : "; looked in:") + looked +
               ". `dlbench workloads` lists them; a path to a YAML file also works.";
  }
  throw UsageError(message);
}

std::vector<WorkloadEntry> WorkloadCatalog::list() const {
  std::map<std::string, WorkloadEntry> by_name;
  for (const auto& folder : folders_) {
    std::error_code error;
    if (!fs::is_directory(folder, error)) continue;
    for (const auto& item : fs::directory_iterator(folder, error)) {
      if (!item.is_regular_file() || !IsYaml(item.path())) continue;
      const std::string name = item.path().stem().string();
      if (by_name.count(name)) continue;  // an earlier folder shadows this one
      if (IsHydraTopLevelConfig(item.path())) continue;
      by_name[name] = WorkloadEntry{name, item.path(), FirstCommentLine(item.path())};
    }
  }
  std::vector<WorkloadEntry> entries;
  for (auto& [name, entry] : by_name) entries.push_back(std::move(entry));
  return entries;
}

std::string DefaultWorkloadsDir() {
  if (const char* env = std::getenv("DLBENCH_WORKLOADS_DIR"); env && *env) return env;
  std::error_code error;
  const fs::path exe = fs::read_symlink("/proc/self/exe", error);
  if (!error) {
    for (fs::path dir = exe.parent_path(); !dir.empty() && dir != dir.root_path();
         dir = dir.parent_path()) {
      for (const fs::path& candidate :
           {dir / "workloads", dir / "share" / "dlbench" / "workloads"}) {
        if (fs::is_directory(candidate, error)) return candidate.string();
      }
    }
  }
  return DLBENCH_SOURCE_WORKLOADS;
}

std::size_t EditDistance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> previous(b.size() + 1), current(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) previous[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, substitution});
    }
    std::swap(previous, current);
  }
  return previous[b.size()];
}

std::optional<std::string> ClosestMatch(const std::string& word,
                                        const std::vector<std::string>& candidates) {
  std::optional<std::string> best;
  std::size_t best_distance = std::max<std::size_t>(3, word.size() / 3) + 1;
  for (const auto& candidate : candidates) {
    const std::size_t distance = EditDistance(word, candidate);
    if (distance < best_distance) {
      best_distance = distance;
      best = candidate;
    }
  }
  return best;
}

}  // namespace dlbench::config
