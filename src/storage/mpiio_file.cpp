#include "storage/mpiio_file.h"

#include <mpi.h>

#include <climits>
#include <string>
#include <utility>

#include "storage/posix_file.h"
#include "util/error.h"

namespace dlbench::storage {
namespace {

int Count(Bytes length, const std::string& path) {
  if (length > static_cast<Bytes>(INT_MAX)) {
    throw InternalError("MPI-IO transfer of " + std::to_string(length) +
                        " bytes (over INT_MAX) on " + path);
  }
  return static_cast<int>(length);
}

// The bytes a finished transfer moved.
Bytes Moved(const MPI_Status& status) {
  int count = 0;
  MPI_Get_count(&status, MPI_BYTE, &count);
  return count == MPI_UNDEFINED ? 0 : static_cast<Bytes>(count);
}

class MpiIoFile final : public storage::SharedFile {
 public:
  MpiIoFile(MPI_File handle, std::string path) : handle_(handle), path_(std::move(path)) {}
  // Not closed: abandoned, not closed (storage/shared_file.h).

  const std::string& path() const override { return path_; }

  void write_at_all(Bytes offset, const void* data, Bytes length) override {
    MPI_Status status;
    CheckMpiIo(PMPI_File_write_at_all(handle_, static_cast<MPI_Offset>(offset), data,
                                      Count(length, path_), MPI_BYTE, &status),
               "MPI_File_write_at_all", path_, offset, length);
    check_written(status, "MPI_File_write_at_all", offset, length);
  }
  void write_at(Bytes offset, const void* data, Bytes length) override {
    MPI_Status status;
    CheckMpiIo(PMPI_File_write_at(handle_, static_cast<MPI_Offset>(offset), data,
                                  Count(length, path_), MPI_BYTE, &status),
               "MPI_File_write_at", path_, offset, length);
    check_written(status, "MPI_File_write_at", offset, length);
  }
  Bytes read_at(Bytes offset, void* data, Bytes length) override {
    MPI_Status status;
    CheckMpiIo(PMPI_File_read_at(handle_, static_cast<MPI_Offset>(offset), data,
                                 Count(length, path_), MPI_BYTE, &status),
               "MPI_File_read_at", path_, offset, length);
    return Moved(status);
  }
  Bytes read_at_all(Bytes offset, void* data, Bytes length) override {
    MPI_Status status;
    CheckMpiIo(PMPI_File_read_at_all(handle_, static_cast<MPI_Offset>(offset), data,
                                     Count(length, path_), MPI_BYTE, &status),
               "MPI_File_read_at_all", path_, offset, length);
    return Moved(status);
  }
  Bytes size() override {
    MPI_Offset size = 0;
    CheckMpiIo(PMPI_File_get_size(handle_, &size), "MPI_File_get_size", path_, 0, 0);
    return static_cast<Bytes>(size);
  }
  void set_size(Bytes size) override {
    CheckMpiIo(PMPI_File_set_size(handle_, static_cast<MPI_Offset>(size)), "MPI_File_set_size",
               path_, size, 0);
  }
  void sync() override { CheckMpiIo(PMPI_File_sync(handle_), "MPI_File_sync", path_, 0, 0); }
  void close() override {
    if (handle_ == MPI_FILE_NULL) return;
    const int rc = PMPI_File_close(&handle_);
    handle_ = MPI_FILE_NULL;
    CheckMpiIo(rc, "MPI_File_close", path_, 0, 0);
  }

 private:
  void check_written(const MPI_Status& status, const char* operation, Bytes offset,
                     Bytes length) const {
    const Bytes written = Moved(status);
    if (written != length) {
      throw IoError(operation, path_, 0,
                    storage::OffsetDetail(offset, length) + ": wrote only " +
                        std::to_string(written) + " bytes");
    }
  }

  MPI_File handle_;
  std::string path_;
};

}  // namespace

void CheckMpiIo(int rc, const char* operation, const std::string& path, Bytes offset,
                Bytes length) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int n = 0;
  MPI_Error_string(rc, text, &n);
  std::string detail = offset > 0 || length > 0 ? storage::OffsetDetail(offset, length) + ": " : "";
  throw IoError(operation, path, 0, detail + std::string(text, static_cast<std::size_t>(n)));
}

std::unique_ptr<storage::SharedFile> MpiIoOpener::open(const std::string& path) {
  MPI_File handle = MPI_FILE_NULL;
  CheckMpiIo(PMPI_File_open(MPI_Comm_f2c(comm_.fortran_handle()), path.c_str(),
                            MPI_MODE_WRONLY | MPI_MODE_CREATE, MPI_INFO_NULL, &handle),
             "MPI_File_open", path, 0, 0);
  return std::make_unique<MpiIoFile>(handle, path);
}

}  // namespace dlbench::storage
