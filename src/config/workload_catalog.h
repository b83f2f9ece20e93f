// Finding workload files by name, as DLIO finds `workload=NAME` on its config search path.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace dlbench::config {

struct WorkloadEntry {
  std::string name;  // file stem: unet3d_h100
  std::filesystem::path path;
  std::string description;  // first comment line of the file, without '#'
};

// The search path: each of `config_dirs` (DIR/NAME.yaml and DIR/workload/NAME.yaml), then
// `workloads_dir`.
class WorkloadCatalog {
 public:
  WorkloadCatalog(std::vector<std::string> config_dirs, std::string workloads_dir);

  // The file for `workload`: a path to an existing file, `workload=NAME`, or NAME.
  // Throws Error(kUsage) listing where it looked and the closest names when not found, and
  // naming the file when NAME is Hydra's top-level config.
  std::filesystem::path resolve(const std::string& workload) const;

  // Every workload on the search path, sorted by name; earlier folders shadow later ones. Hydra's
  // top-level config.yaml of a DLIO or MLPerf config folder is no workload and is left out.
  std::vector<WorkloadEntry> list() const;

 private:
  std::vector<std::filesystem::path> folders_;
};

// Whether `path` is Hydra's top-level configuration (DLIO's configs/config.yaml, MLPerf Storage's
// configs/dlio/config.yaml): a mapping with a `defaults:` list and none of a workload's sections
// (model, dataset, workflow, ...). False for a file that is not YAML.
bool IsHydraTopLevelConfig(const std::filesystem::path& path);

// The folder of dlbench's shipped workloads: $DLBENCH_WORKLOADS_DIR, else workloads/ next to
// or above the running binary, else the source tree it was built from.
std::string DefaultWorkloadsDir();

// Levenshtein distance, for "did you mean" suggestions.
std::size_t EditDistance(const std::string& a, const std::string& b);

// The candidate closest to `word`, if it is close enough to be a plausible typo.
std::optional<std::string> ClosestMatch(const std::string& word,
                                        const std::vector<std::string>& candidates);

}  // namespace dlbench::config
