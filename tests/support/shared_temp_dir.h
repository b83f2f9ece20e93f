// One temporary folder for every rank of a multi-rank test: rank 0 makes a TempDir and every rank
// gets its path. The destructor waits for every rank before rank 0 removes the folder, so it must
// be destroyed on every rank (collectively), as the tests' scopes do.
#pragma once

#include <filesystem>
#include <memory>
#include <string>

#include "mpi/communicator.h"
#include "support/test_support.h"

namespace dlbench::test {

class SharedTempDir {
 public:
  explicit SharedTempDir(const mpi::Communicator& comm = World());
  ~SharedTempDir();
  SharedTempDir(const SharedTempDir&) = delete;
  SharedTempDir& operator=(const SharedTempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

 private:
  mpi::Communicator comm_;
  std::unique_ptr<TempDir> dir_;  // rank 0's
  std::filesystem::path path_;
};

}  // namespace dlbench::test
