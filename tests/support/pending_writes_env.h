// An Env wrapper standing for an object store whose every folder holds `per_folder` uploads a
// killed run left pending: abort_pending_writes records the folder asked and returns that many.
// For the code that must abort them (generation's rerun, a checkpoint's commit, a drain's
// finisher) and route the question (the mount table). Not thread-safe: the callers ask from one
// rank's one thread.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "storage/env_wrapper.h"

namespace dlbench::test {

class PendingWritesEnv final : public storage::EnvWrapper {
 public:
  PendingWritesEnv(storage::Env& target, std::size_t per_folder)
      : EnvWrapper(target), per_folder_(per_folder) {}
  std::size_t abort_pending_writes(const std::string& path) override {
    asked.push_back(path);
    return per_folder_;
  }
  std::vector<std::string> asked;  // the folders, in the order asked

 private:
  std::size_t per_folder_;
};

}  // namespace dlbench::test
