#include "config/config_builder.h"

#include "config/schema.h"
#include "util/error.h"

namespace dlbench::config {
namespace {

class Builder {
 public:
  Builder(bool allow_unknown_keys, Config& config, KeyOrigins& origins,
          std::vector<std::string>& notices)
      : allow_unknown_keys_(allow_unknown_keys),
        config_(config),
        origins_(origins),
        notices_(notices) {}

  void section(const DocNode& map, std::vector<std::string>& key) {
    for (const auto& [name, value] : map.entries) {
      key.push_back(name);
      const KeyLookup lookup = Lookup(key);
      switch (lookup.kind) {
        case KeyLookup::Kind::kField:
          set_field(*lookup.field, value, key);
          break;
        case KeyLookup::Kind::kSection:
          if (value.is_map()) {
            section(value, key);
          } else if (!value.is_null()) {  // an empty section (`train:`) is fine
            throw UsageError(JoinKey(key) + ": expected a section (a mapping of keys), got " +
                             Describe(value) + Where(value));
          }
          break;
        case KeyLookup::Kind::kInsideField:  // a field is always met before its insides
        case KeyLookup::Kind::kUnknown:
          unknown(key, lookup, value);
          break;
      }
      key.pop_back();
    }
  }

 private:
  void set_field(const Field& field, const DocNode& value, std::vector<std::string>& key) {
    DocNode pruned = value;
    if (!field.subkeys.empty()) prune(pruned, key);
    field.set(config_, pruned);
    origins_[field.path] = value.origin;
    record_inner_origins(pruned, field.path);
    if (!field.no_effect.empty()) {
      notices_.push_back(field.path + Where(value) + ": accepted without effect (" +
                         field.no_effect + ")");
    }
  }

  // Every key inside a composite field keeps its own origin: a tier's path may come from one
  // override and its bandwidth_limit from another, and a message names the one it is about.
  void record_inner_origins(const DocNode& node, const std::string& path) {
    if (!node.is_map()) return;
    for (const auto& [name, child] : node.entries) {
      origins_[path + "." + name] = child.origin;
      record_inner_origins(child, path + "." + name);
    }
  }

  // Removes (or rejects) keys below a composite field that its subkeys do not allow.
  void prune(DocNode& node, std::vector<std::string>& key) {
    if (!node.is_map()) return;
    for (std::size_t i = 0; i < node.entries.size();) {
      key.push_back(node.entries[i].first);
      const KeyLookup lookup = Lookup(key);
      if (lookup.kind == KeyLookup::Kind::kUnknown) {
        unknown(key, lookup, node.entries[i].second);
        node.entries.erase(node.entries.begin() + static_cast<long>(i));
      } else {
        prune(node.entries[i].second, key);
        ++i;
      }
      key.pop_back();
    }
  }

  void unknown(const std::vector<std::string>& key, const KeyLookup& lookup, const DocNode& value) {
    const std::string message = UnknownKeyMessage(key, lookup, value.origin);
    if (!allow_unknown_keys_) throw UsageError(message);
    notices_.push_back(message + " (ignored)");
  }

  bool allow_unknown_keys_;
  Config& config_;
  KeyOrigins& origins_;
  std::vector<std::string>& notices_;
};

}  // namespace

void BuildConfig(const DocNode& root, bool allow_unknown_keys, Config& config, KeyOrigins& origins,
                 std::vector<std::string>& notices) {
  if (root.is_null()) return;
  if (!root.is_map()) {
    throw UsageError(
        "a workload document must be a mapping of sections (model, dataset, ...), "
        "got " +
        Describe(root) + Where(root));
  }
  std::vector<std::string> key;
  Builder(allow_unknown_keys, config, origins, notices).section(root, key);
}

}  // namespace dlbench::config
