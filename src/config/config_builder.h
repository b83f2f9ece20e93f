// Turning the workload document (file + aliases + overrides) into the typed Config.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "config/config.h"
#include "config/document.h"

namespace dlbench::config {

// Where each key that was given came from ("x.yaml:7", "override ++workload.a=1"); keys left
// at their default are absent. Validation uses it to point at the offending line.
using KeyOrigins = std::map<std::string, std::string>;

// Sets every key of `root` on `config`. Unknown keys are errors naming the key, where it came
// from and the closest known key; with `allow_unknown_keys` they become notices and are
// skipped. Keys accepted without effect add a notice.
void BuildConfig(const DocNode& root, bool allow_unknown_keys, Config& config, KeyOrigins& origins,
                 std::vector<std::string>& notices);

}  // namespace dlbench::config
