// Legacy spellings of DLIO keys: accepted, rewritten to the canonical key, and
// reported with a one-line notice. An alias and its canonical key given with different values
// are an error.
#pragma once

#include <string>
#include <vector>

#include "config/document.h"

namespace dlbench::config {

// Rewrites every legacy spelling in a workload document in place.
void ApplyAliases(DocNode& root, std::vector<std::string>& notices);

// The canonical key for an override key (e.g. dataset.record_length → record_length_bytes).
// `value_is_scalar` distinguishes `model=NAME` (≤v1.0 model name) from `model={...}`.
std::vector<std::string> CanonicalKey(const std::vector<std::string>& key, bool value_is_scalar,
                                      const std::string& origin, std::vector<std::string>& notices);

}  // namespace dlbench::config
