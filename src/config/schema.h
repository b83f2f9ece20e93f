// The key table: every key of the workload schema with its type (through the C++ type of the
// field it sets), its setter and its getter. One table drives parsing, unknown-key detection,
// ToYaml and Query, so a key is never listed twice.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "config/config.h"
#include "config/document.h"

namespace dlbench::config {

struct Field {
  std::string path;  // dotted: "dataset.num_files_train"
  // Converts the document value (already free of unknown keys) into the typed field.
  std::function<void(Config&, const DocNode&)> set;
  // The field as a document value; nullopt leaves the key out of ToYaml (e.g. no ksm map).
  std::function<std::optional<DocNode>(const Config&)> get;
  // For fields whose value is a mapping (distributions, tiers, ...): the key paths allowed
  // below it; a "*" segment matches any name (tier names, storage options).
  std::vector<std::string> subkeys;
  // Non-empty: the key is accepted but has no effect; printed as a notice when given.
  std::string no_effect;
};

const std::vector<Field>& Schema();

// Where a dotted key stands in the schema.
struct KeyLookup {
  enum class Kind { kField, kInsideField, kSection, kUnknown };
  Kind kind = Kind::kUnknown;
  const Field* field = nullptr;  // kField, kInsideField
  // kUnknown: how many leading segments are known, and the closest known next segment.
  std::size_t known_segments = 0;
  std::optional<std::string> suggestion;
};

KeyLookup Lookup(const std::vector<std::string>& segments);

std::vector<std::string> SplitKey(const std::string& dotted);
std::string JoinKey(const std::vector<std::string>& segments,
                    std::size_t count = std::string::npos);

// "<key>: unknown key (<origin>); did you mean <x>?" for segments that Lookup found unknown.
std::string UnknownKeyMessage(const std::vector<std::string>& segments, const KeyLookup& lookup,
                              const std::string& origin);

}  // namespace dlbench::config
