// An Env wrapper that counts the questions asked about single files (exists, file_size): what a
// rerun of generation or a listing-based decision must not multiply by the number of files.
#pragma once

#include <atomic>
#include <string>

#include "storage/env_wrapper.h"

namespace dlbench::test {

class QuestionCounter : public storage::EnvWrapper {
 public:
  explicit QuestionCounter(storage::Env& target) : EnvWrapper(target) {}
  std::atomic<int> exists_calls{0};
  std::atomic<int> size_calls{0};

  bool exists(const std::string& path) override {
    ++exists_calls;
    return EnvWrapper::exists(path);
  }
  Bytes file_size(const std::string& path) override {
    ++size_calls;
    return EnvWrapper::file_size(path);
  }
};

}  // namespace dlbench::test
