#include "config/aliases.h"

#include <algorithm>

#include "config/schema.h"
#include "util/error.h"

namespace dlbench::config {
namespace {

struct Alias {
  const char* legacy;
  const char* canonical;
  const char* note;  // appended to the notice
};

constexpr Alias kAliases[] = {
    {"dataset.record_length", "dataset.record_length_bytes", "DLIO <=1.0 spelling"},
    {"dataset.record_length_stdev", "dataset.record_length_bytes_stdev", "DLIO <=1.0 spelling"},
    {"dataset.record_length_resize", "dataset.record_length_bytes_resize", "DLIO <=1.0 spelling"},
    {"checkpoint.model_size", "model.model_size_bytes", "DLIO <=1.0 spelling"},
    {"model.model_size", "model.model_size_bytes",
     "honoured by dlbench, but DLIO >=2.0 ignored it and wrote a 10240-byte model"},
    {"checkpoint.optimization_groups", "model.optimization_groups", "DLIO <=1.0 spelling"},
    {"checkpoint.num_layers", "model.num_layers", "DLIO <=1.0 spelling"},
    {"checkpoint.layer_parameters", "model.layer_parameters", "DLIO <=1.0 spelling"},
    {"checkpoint.tensor_parallelism", "model.parallelism.tensor", "DLIO <=1.0 spelling"},
    {"checkpoint.pipeline_parallelism", "model.parallelism.pipeline", "DLIO <=1.0 spelling"},
    {"train.computation_time_stdev", "train.computation_time.stdev", "flat form of the stdev"},
    {"reader.preprocess_time_stdev", "reader.preprocess_time.stdev", "flat form of the stdev"},
    {"evaluation.eval_time_stdev", "evaluation.eval_time.stdev", "flat form of the stdev"},
};

std::string Notice(const std::string& legacy, const std::string& origin,
                   const std::string& canonical, const std::string& note) {
  return legacy + (origin.empty() ? "" : " (" + origin + ")") + ": read as " + canonical + " (" +
         note + ")";
}

[[noreturn]] void Conflict(const std::string& legacy, const DocNode& legacy_value,
                           const std::string& canonical, const DocNode& canonical_value) {
  throw UsageError(legacy + " = " + Describe(legacy_value) + Where(legacy_value) + " and " +
                   canonical + " = " + Describe(canonical_value) + Where(canonical_value) +
                   " are the same key (legacy and current spelling) with different values; "
                   "keep only " +
                   canonical);
}

DocNode* FindPath(DocNode& root, const std::vector<std::string>& key, std::size_t count) {
  DocNode* node = &root;
  for (std::size_t i = 0; i < count; ++i) {
    node = node->find(key[i]);
    if (!node) return nullptr;
  }
  return node;
}

// The map at `key` (all segments), created as needed. A scalar met on the way becomes
// {mean: scalar}: that is how a time value grows its stdev.
DocNode& MapAt(DocNode& root, const std::vector<std::string>& key, const std::string& origin) {
  DocNode* node = &root;
  for (const auto& segment : key) {
    DocNode* child = node->find(segment);
    if (!child) child = &node->set(segment, DocNode::Map(origin));
    if (child->is_null()) *child = DocNode::Map(child->origin);
    if (child->is_scalar()) {
      DocNode promoted = DocNode::Map(child->origin);
      promoted.set("mean", *child);
      *child = promoted;
    }
    if (!child->is_map()) {
      throw UsageError(segment + ": expected a mapping, got " + Describe(*child) + Where(*child));
    }
    node = child;
  }
  return *node;
}

void MergeDataReader(DocNode& root, std::vector<std::string>& notices) {
  DocNode* legacy = root.find("data_reader");
  if (!legacy) return;
  notices.push_back(Notice("data_reader", legacy->origin, "reader", "legacy section name"));
  DocNode* current = root.find("reader");
  if (!current || current->is_null()) {
    DocNode moved = *legacy;
    root.erase("data_reader");
    root.set("reader", moved);
    return;
  }
  if (legacy->is_map() && current->is_map()) {
    for (const auto& [key, value] : legacy->entries) {
      if (const DocNode* existing = current->find(key)) {
        if (!SameValue(*existing, value)) {
          Conflict("data_reader." + key, value, "reader." + key, *existing);
        }
      } else {
        current->set(key, value);
      }
    }
  }
  root.erase("data_reader");
}

}  // namespace

void ApplyAliases(DocNode& root, std::vector<std::string>& notices) {
  if (!root.is_map()) return;
  if (DocNode* model = root.find("model"); model && model->is_scalar()) {
    notices.push_back(Notice("model", model->origin, "model.name", "DLIO <=1.0 form"));
    DocNode name = *model;
    *model = DocNode::Map(name.origin);
    model->set("name", name);
  }
  MergeDataReader(root, notices);
  for (const Alias& alias : kAliases) {
    const auto legacy_key = SplitKey(alias.legacy);
    DocNode* parent = FindPath(root, legacy_key, legacy_key.size() - 1);
    if (!parent || !parent->is_map()) continue;
    const DocNode* found = parent->find(legacy_key.back());
    if (!found) continue;
    const DocNode legacy = *found;
    parent->erase(legacy_key.back());
    notices.push_back(Notice(alias.legacy, legacy.origin, alias.canonical, alias.note));
    const auto canonical_key = SplitKey(alias.canonical);
    DocNode& target_parent =
        MapAt(root, std::vector<std::string>(canonical_key.begin(), canonical_key.end() - 1),
              legacy.origin);
    if (const DocNode* existing = target_parent.find(canonical_key.back())) {
      if (!SameValue(*existing, legacy)) {
        Conflict(alias.legacy, legacy, alias.canonical, *existing);
      }
      continue;
    }
    target_parent.set(canonical_key.back(), legacy);
  }
}

std::vector<std::string> CanonicalKey(const std::vector<std::string>& key, bool value_is_scalar,
                                      const std::string& origin,
                                      std::vector<std::string>& notices) {
  std::vector<std::string> result = key;
  if (!result.empty() && result[0] == "data_reader") {
    notices.push_back(Notice(JoinKey(key, key.size()), origin, "reader", "legacy section name"));
    result[0] = "reader";
  }
  if (result.size() == 1 && result[0] == "model" && value_is_scalar) {
    notices.push_back(Notice("model", origin, "model.name", "DLIO <=1.0 form"));
    return {"model", "name"};
  }
  for (const Alias& alias : kAliases) {
    const auto legacy = SplitKey(alias.legacy);
    if (result.size() < legacy.size() ||
        !std::equal(legacy.begin(), legacy.end(), result.begin())) {
      continue;
    }
    auto canonical = SplitKey(alias.canonical);
    notices.push_back(Notice(alias.legacy, origin, alias.canonical, alias.note));
    canonical.insert(canonical.end(), result.begin() + static_cast<long>(legacy.size()),
                     result.end());
    return canonical;
  }
  return result;
}

}  // namespace dlbench::config
