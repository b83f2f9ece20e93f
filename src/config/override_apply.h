// Applying parsed overrides to the workload document, left to right, with Hydra's rules for
// `=`, `+`, `++` and `~`, after the file's legacy spellings are resolved.
#pragma once

#include <string>
#include <vector>

#include "config/document.h"
#include "config/override_parser.h"

namespace dlbench::config {

// Throws Error(kUsage) for unknown keys (with a suggestion), `+` on a key already present and
// `~key=v` whose current value differs.
void ApplyOverride(DocNode& root, const Override& override_spec, std::vector<std::string>& notices);

}  // namespace dlbench::config
