// DLIO/Hydra command-line overrides: `++workload.a.b=v`, `workload.a.b=v`,
// `+a.b=v`, `~a.b`, `hydra.run.dir=D`, with Hydra's value grammar.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "config/document.h"

namespace dlbench::config {

struct Override {
  enum class Op {
    kSet,     // a.b=v: the key must be a known key
    kAdd,     // +a.b=v: the key must not be in the document yet
    kUpsert,  // ++a.b=v
    kDelete,  // ~a.b or ~a.b=v: back to the default
  };
  Op op = Op::kUpsert;
  std::string text;              // verbatim, as given
  std::vector<std::string> key;  // path in the workload document (`workload.` removed)
  std::optional<DocNode> value;  // every node's origin is "override <text>"
  std::string ignored_notice;    // non-empty: a Hydra setting without meaning for dlbench
};

// Parses one override. Throws Error(kUsage) for bad syntax, ambiguous values (`a,b`), sweep
// functions (`range(...)`) and interpolations (`${...}`).
Override ParseOverride(const std::string& text);

// Parses just a value in Hydra's grammar (exposed for tests).
DocNode ParseOverrideValue(const std::string& value, const std::string& origin);

}  // namespace dlbench::config
