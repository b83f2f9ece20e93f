// Shared helpers for the config tests: load YAML text, expect a usage error with a message.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <ostream>
#include <source_location>
#include <string>
#include <vector>

#include "config/load.h"
#include "support/expect_error.h"
#include "util/error.h"

namespace dlbench::config::testing {

// `forced`: the one phase a command runs (LoadOptions::forced); unset, the workflow's phases.
inline LoadResult LoadText(const std::string& yaml, const std::vector<std::string>& overrides = {},
                           int world_size = 1, bool allow_unknown_keys = false,
                           std::optional<Phase> forced = std::nullopt) {
  LoadOptions options;
  options.world_size = world_size;
  options.allow_unknown_keys = allow_unknown_keys;
  options.forced = forced;
  return LoadYamlText(yaml, "w.yaml", overrides, options);
}

// The message of the usage error (exit 2) that `fn` throws; fails the test if it throws nothing
// or another error (test::ExpectError).
inline std::string UsageMessage(const std::function<void()>& fn,
                                std::source_location where = std::source_location::current()) {
  return dlbench::test::ExpectError(fn, ExitCode::kUsage, {}, where);
}

// A document that breaks one rule, and the part of the message the rule must give
// (validate_test.cpp, storage_rules_test.cpp). `forced`: the phase a command forces (unset: the
// workflow's phases).
struct RuleCase {
  const char* name;
  const char* yaml;
  std::vector<std::string> overrides;
  int world;
  const char* message;
  std::optional<Phase> forced = std::nullopt;
};

inline std::ostream& operator<<(std::ostream& out, const RuleCase& rule) {
  return out << rule.name;
}

// Loading `rule`'s document fails with exit 2 and a message holding rule.message.
inline void ExpectRejected(const RuleCase& rule) {
  const std::string message =
      UsageMessage([&] { LoadText(rule.yaml, rule.overrides, rule.world, false, rule.forced); });
  EXPECT_NE(message.find(rule.message), std::string::npos) << message;
}

inline std::string LoadError(const std::string& yaml,
                             const std::vector<std::string>& overrides = {}, int world_size = 1) {
  return UsageMessage([&] { LoadText(yaml, overrides, world_size); });
}

}  // namespace dlbench::config::testing
