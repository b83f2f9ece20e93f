// An Env over another that says it lacks some capabilities (storage/file.h Capabilities), as a
// backend without them would: for tests of the code that must refuse or avoid what the storage
// cannot do. Only capabilities(path) changes; every operation still reaches the target.
#pragma once

#include <string>
#include <utility>

#include "storage/env_wrapper.h"

namespace dlbench::test {

class LimitedEnv final : public storage::EnvWrapper {
 public:
  LimitedEnv(storage::Env& target, storage::Capabilities capabilities)
      : EnvWrapper(target), capabilities_(std::move(capabilities)) {}

  storage::Capabilities capabilities(const std::string& /*path*/) override { return capabilities_; }

 private:
  storage::Capabilities capabilities_;
};

}  // namespace dlbench::test
