// Helpers shared by dlbench's unit tests.
#pragma once

#include <filesystem>
#include <string>

#include "mpi/communicator.h"

namespace dlbench::test {

// MPI_COMM_WORLD of the test process (initialises MPI on first use; a singleton under ctest,
// the real world under mpiexec).
mpi::Communicator World();

// The source tree (for workloads/, configs/ and test data).
inline std::filesystem::path SourceDir() { return DLBENCH_SOURCE_DIR; }

// A fresh folder under $TMPDIR removed with its contents when the object dies.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }
  // Writes `content` to `name` (creating parent folders) and returns the full path.
  std::filesystem::path write(const std::string& name, const std::string& content) const;

 private:
  std::filesystem::path path_;
};

}  // namespace dlbench::test
