#include "config/load.h"

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "config/aliases.h"
#include "config/checker.h"
#include "config/config_builder.h"
#include "config/document.h"
#include "config/override_apply.h"
#include "config/override_parser.h"
#include "config/validate.h"
#include "config/workload_catalog.h"
#include "util/error.h"
#include "util/path_text.h"

namespace dlbench::config {
namespace {

// Hydra's saved config.yaml is rooted at `workload:`; a workload file is not.
void UnwrapWorkloadRoot(DocNode& root, std::vector<std::string>& notices) {
  if (root.is_map() && root.entries.size() == 1 && root.entries[0].first == "workload" &&
      root.entries[0].second.is_map()) {
    notices.push_back("workload" + Where(root.entries[0].second) +
                      ": document rooted at `workload:` (a Hydra config.yaml); read its contents");
    DocNode inner = root.entries[0].second;
    root = inner;
  }
}

// DLIO forces jpeg/png samples to uint8 with a warning; dlbench does the same, once, here.
void Normalize(Config& config, std::vector<std::string>& notices) {
  const bool image =
      config.dataset.format == Format::kJpeg || config.dataset.format == Format::kPng;
  if (image && config.dataset.record_element_type != "uint8") {
    notices.push_back("dataset.record_element_type: " + config.dataset.record_element_type +
                      " replaced by uint8, the only element type of " +
                      ToString(config.dataset.format) + " images");
    config.dataset.record_element_type = "uint8";
  }
  config.dataset.content.encoding = ResolvedContentEncoding(config.dataset);
}

// With storage_type s3, a data or checkpoint folder that is not a URI is a key prefix in the bucket
// storage.storage_root names (MLPerf Storage's spelling: `storage_root: mlp-s3dlio`,
// `data_folder: test-run/unet3d`); DLIO's `data_folder: s3://bucket/prefix` stays as written.
// Without a bucket the folder stays as it is, and validation refuses it (storage_rules.cpp). The
// data folder's resolution is noticed when a phase that runs uses it (`uses_data`).
void ResolveObjectStoreFolders(Config& config, bool uses_data, std::vector<std::string>& notices) {
  if (config.storage.storage_type != StorageType::kS3) return;
  std::string_view bucket = config.storage.storage_root;
  if (bucket.starts_with("s3://")) bucket.remove_prefix(5);
  while (bucket.ends_with('/')) bucket.remove_suffix(1);
  if (bucket.empty() || bucket == ".") return;
  for (auto [key, folder] :
       {std::pair{"dataset.data_folder", &config.dataset.data_folder},
        std::pair{"checkpoint.checkpoint_folder", &config.checkpoint.checkpoint_folder}}) {
    if (IsUri(*folder) || folder->empty()) continue;
    std::string_view prefix = *folder;
    while (prefix.starts_with("./")) prefix.remove_prefix(2);
    while (prefix.starts_with('/')) prefix.remove_prefix(1);
    while (prefix.ends_with('/')) prefix.remove_suffix(1);
    const std::string uri = "s3://" + std::string(bucket) + "/" + std::string(prefix);
    if (folder == &config.dataset.data_folder && uses_data) {
      notices.push_back(std::string(key) + ": '" + *folder +
                        "' is a key prefix in the bucket storage.storage_root names: " + uri);
    }
    *folder = uri;
  }
}

// {node} in a tier's path becomes this process's node name; path_template keeps what was written.
void ExpandNodePaths(Config& config, const std::string& node) {
  const std::string placeholder = kNodePlaceholder;
  for (TierConfig& tier : config.storage.tiers) {
    for (std::size_t at = tier.path.find(placeholder); at != std::string::npos;
         at = tier.path.find(placeholder, at + node.size())) {
      if (node.empty()) {
        throw InternalError("storage.tiers." + tier.name + ".path uses " + placeholder +
                            " but config::Load got no node name");
      }
      tier.path.replace(at, placeholder.size(), node);
    }
  }
}

// True when the model size is given as model.model_size (in the document or an override) and never
// as model.model_size_bytes: DLIO >=2.0 reads only the latter. Looked at before the aliases
// rewrite one into the other.
bool ModelSizeOnlyInIgnoredKey(const DocNode& root, const std::vector<std::string>& overrides) {
  bool ignored = false;
  bool read = false;
  if (const DocNode* model = root.is_map() ? root.find("model") : nullptr;
      model && model->is_map()) {
    ignored = model->find("model_size") != nullptr;
    read = model->find("model_size_bytes") != nullptr;
  }
  for (const std::string& text : overrides) {
    const Override o = ParseOverride(text);
    const bool set = o.op != Override::Op::kDelete;
    if (o.key == std::vector<std::string>{"model", "model_size"}) ignored = set;
    if (o.key == std::vector<std::string>{"model", "model_size_bytes"}) read = set;
  }
  return ignored && !read;
}

LoadResult LoadDocument(DocNode root, const std::string& source_file,
                        const std::vector<std::string>& overrides, const LoadOptions& options) {
  LoadResult result;
  UnwrapWorkloadRoot(root, result.notices);
  const bool model_size_ignored_by_dlio = ModelSizeOnlyInIgnoredKey(root, overrides);
  if (!root.is_null() && !root.is_map()) {
    throw UsageError(
        "a workload document must be a mapping of sections (model, dataset, ...), "
        "got " +
        Describe(root) + Where(root));
  }
  if (root.is_null()) root = DocNode::Map(source_file);
  ApplyAliases(root, result.notices);
  for (const auto& text : overrides) {
    ApplyOverride(root, ParseOverride(text), result.notices);
  }
  KeyOrigins origins;
  BuildConfig(root, options.allow_unknown_keys, result.config, origins, result.notices);
  Normalize(result.config, result.notices);
  const PhasesRun phases = PhasesThatRun(result.config.workflow, options.forced);
  ResolveObjectStoreFolders(result.config, phases.generate || phases.stage || phases.train,
                            result.notices);
  result.config.model.model_size_ignored_by_dlio = model_size_ignored_by_dlio;
  ExpandNodePaths(result.config, options.node);
  // An empty or unsafe --output (a system folder) is refused with its own message when the output
  // folder is prepared (workflow::PrepareOutputFolder); here it is checked for the overlap.
  if (options.output_folder && UnsafeFolderReason(*options.output_folder).empty()) {
    // `-o DATA_FOLDER` passed where `output.folder: DATA_FOLDER` was refused for the overlap.
    Config checked = result.config;
    checked.output.folder = *options.output_folder;
    origins["output.folder"] = "--output";
    Validate(checked, origins, options.world_size, options.forced, result.notices);
  } else {
    Validate(result.config, origins, options.world_size, options.forced, result.notices);
  }
  result.config.source_file = source_file;
  result.config.overrides = overrides;
  return result;
}

}  // namespace

LoadResult Load(const std::string& workload, const std::vector<std::string>& overrides,
                const LoadOptions& options) {
  const WorkloadCatalog catalog(options.config_dirs, options.workloads_dir.empty()
                                                         ? DefaultWorkloadsDir()
                                                         : options.workloads_dir);
  const auto path = catalog.resolve(workload);
  return LoadDocument(ReadYamlFile(path), path.string(), overrides, options);
}

LoadResult LoadYamlText(const std::string& text, const std::string& name,
                        const std::vector<std::string>& overrides, const LoadOptions& options) {
  return LoadDocument(ParseYaml(text, name), name, overrides, options);
}

}  // namespace dlbench::config
