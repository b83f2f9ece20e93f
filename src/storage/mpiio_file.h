// MPI-IO behind storage::SharedFile (storage/shared_file.h): the opener dlbench's own shared-file
// writes (workflow/shared_file_writer.h) hand to Env::open_shared, so that the Env wrappers see
// their bytes. The files call the PMPI_File_* entry points, never MPI_File_*, which
// storage/mpiio_capture.h defines for libraries that do their own MPI-IO.
#pragma once

#include <memory>
#include <string>

#include "mpi/communicator.h"
#include "storage/shared_file.h"
#include "util/units.h"

namespace dlbench::storage {

// Opens shared files on every rank of `comm` (MPI_File_open with MPI_MODE_WRONLY |
// MPI_MODE_CREATE, no hints). `comm` (a communicator over MPI, not Local()) outlives the opener,
// which outlives its files.
class MpiIoOpener final : public storage::SharedFileOpener {
 public:
  explicit MpiIoOpener(const mpi::Communicator& comm) : comm_(comm) {}
  std::unique_ptr<storage::SharedFile> open(const std::string& path) override;

 private:
  const mpi::Communicator& comm_;
};

// Throws Error(kIo) "<operation> <path>: at offset .. (length ..): <MPI's message>" unless `rc` is
// MPI_SUCCESS. For the MPI-IO files here and in mpiio_capture.cpp.
void CheckMpiIo(int rc, const char* operation, const std::string& path, Bytes offset, Bytes length);

}  // namespace dlbench::storage
