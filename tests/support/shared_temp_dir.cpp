#include "support/shared_temp_dir.h"

namespace dlbench::test {

SharedTempDir::SharedTempDir(const mpi::Communicator& comm) : comm_(comm) {
  if (comm_.is_root()) dir_ = std::make_unique<TempDir>();
  path_ = comm_.broadcast(comm_.is_root() ? dir_->path().string() : std::string());
}

// The barrier runs before dir_ is destroyed: no rank still uses the folder when it goes.
SharedTempDir::~SharedTempDir() { comm_.barrier(); }

}  // namespace dlbench::test
