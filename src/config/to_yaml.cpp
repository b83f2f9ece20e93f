#include <yaml-cpp/yaml.h>

#include "config/distribution_parser.h"
#include "config/document.h"
#include "config/load.h"
#include "config/schema.h"
#include "config/secrets.h"
#include "util/error.h"

namespace dlbench::config {
namespace {

// The resolved config as a document in schema order, every key present.
DocNode BuildDocument(const Config& config) {
  DocNode root = DocNode::Map();
  for (const Field& field : Schema()) {
    auto value = field.get(config);
    if (!value) continue;
    const auto key = SplitKey(field.path);
    DocNode* node = &root;
    for (std::size_t i = 0; i + 1 < key.size(); ++i) {
      DocNode* child = node->find(key[i]);
      node = child ? child : &node->set(key[i], DocNode::Map());
    }
    node->set(key.back(), std::move(*value));
  }
  return root;
}

}  // namespace

std::string ToYaml(const Config& config) { return EmitYaml(BuildDocument(config)); }

std::string Query(const Config& config, const std::string& dotted) {
  auto key = SplitKey(dotted);
  if (key.size() > 1 && key[0] == "workload") key.erase(key.begin());
  const KeyLookup lookup = Lookup(key);
  if (lookup.kind == KeyLookup::Kind::kUnknown) {
    throw UsageError(UnknownKeyMessage(key, lookup, ""));
  }
  const DocNode root = BuildDocument(config);
  const DocNode* node = &root;
  for (std::size_t i = 0; i < key.size(); ++i) {
    const DocNode* child = node->find(key[i]);
    if (!child && lookup.field && lookup.field->subkeys == DistributionKeys()) {
      // A parameter of a time value that its type does not have printed "null" (exit 0), even
      // `train.computation_time.mean` of a constant, which `++...computation_time.mean=` sets.
      if (node->kind == DocNode::Kind::kScalar && key[i] == "mean") return node->text;
      throw UsageError(dotted + ": " + JoinKey(key, i) + " is " + Describe(*node) +
                       (node->kind == DocNode::Kind::kScalar ? ", a constant" : "") +
                       ", which has no " + key[i] + "; query " + JoinKey(key, i) +
                       " for the whole value");
    }
    node = child;
    if (!node) return "null";  // a known key that is not set (no ksm map)
  }
  std::string text = EmitYaml(*node);
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

std::string OverridesYaml(const std::vector<std::string>& overrides) {
  if (overrides.empty()) return "[]\n";
  YAML::Emitter out;  // block style, one string per line, as Hydra writes overrides.yaml
  out << YAML::BeginSeq;
  for (const auto& text : overrides) out << HideSecretOverride(text);
  out << YAML::EndSeq;
  return std::string(out.c_str()) + "\n";
}

}  // namespace dlbench::config
