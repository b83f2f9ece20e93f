// Shared helpers for the config tests: load YAML text, expect a usage error with a message.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "config/load.h"
#include "util/error.h"

namespace dlbench::config::testing {

inline LoadResult LoadText(const std::string& yaml, const std::vector<std::string>& overrides = {},
                           int world_size = 1, bool allow_unknown_keys = false) {
  LoadOptions options;
  options.world_size = world_size;
  options.allow_unknown_keys = allow_unknown_keys;
  return LoadYamlText(yaml, "w.yaml", overrides, options);
}

// The message of the usage error that `fn` throws; fails the test if it throws nothing or
// another kind of error.
template <typename Fn>
std::string UsageMessage(Fn fn) {
  try {
    fn();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::kUsage) << e.what();
    return e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "unexpected exception: " << e.what();
    return "";
  }
  ADD_FAILURE() << "no error thrown";
  return "";
}

inline std::string LoadError(const std::string& yaml,
                             const std::vector<std::string>& overrides = {}, int world_size = 1) {
  return UsageMessage([&] { LoadText(yaml, overrides, world_size); });
}

}  // namespace dlbench::config::testing
