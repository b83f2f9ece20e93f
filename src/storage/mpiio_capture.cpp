#include "storage/mpiio_capture.h"

#include <mpi.h>

#include <map>
#include <memory>
#include <mutex>
#include <utility>

#include "storage/mpiio_file.h"
#include "util/error.h"

namespace dlbench::storage {
namespace {

// One data transfer as the library asked for it.
struct MpiTransfer {
  MPI_Offset offset = 0;
  const void* data = nullptr;  // writes
  void* into = nullptr;        // reads
  int count = 0;
  MPI_Datatype type = MPI_BYTE;
  MPI_Status* status = MPI_STATUS_IGNORE;

  Bytes bytes() const {
    int size = 0;
    PMPI_Type_size(type, &size);
    return static_cast<Bytes>(count) * static_cast<Bytes>(size);
  }
};

// The bottom of a routed file's chain: makes the library's own call (set by expect() just before
// the chain is entered), whose offset and byte count the wrappers saw. Keeps the MPI error code
// of a failed call, so that the library gets it back.
class LibraryFile final : public storage::SharedFile {
 public:
  LibraryFile(MPI_File handle, std::string path) : handle_(handle), path_(std::move(path)) {}

  MPI_File handle() const { return handle_; }
  int last_rc() const { return rc_; }
  void expect(const MpiTransfer& transfer) {
    transfer_ = transfer;
    rc_ = MPI_SUCCESS;
  }

  const std::string& path() const override { return path_; }
  void write_at_all(Bytes offset, const void*, Bytes length) override {
    MpiTransfer& t = transfer_;
    check(PMPI_File_write_at_all(handle_, t.offset, t.data, t.count, t.type, status()),
          "MPI_File_write_at_all", offset, length);
  }
  void write_at(Bytes offset, const void*, Bytes length) override {
    MpiTransfer& t = transfer_;
    check(PMPI_File_write_at(handle_, t.offset, t.data, t.count, t.type, status()),
          "MPI_File_write_at", offset, length);
  }
  Bytes read_at(Bytes offset, void*, Bytes length) override {
    MpiTransfer& t = transfer_;
    check(PMPI_File_read_at(handle_, t.offset, t.into, t.count, t.type, status()),
          "MPI_File_read_at", offset, length);
    return read();
  }
  Bytes read_at_all(Bytes offset, void*, Bytes length) override {
    MpiTransfer& t = transfer_;
    check(PMPI_File_read_at_all(handle_, t.offset, t.into, t.count, t.type, status()),
          "MPI_File_read_at_all", offset, length);
    return read();
  }
  Bytes size() override {
    MPI_Offset size = 0;
    check(PMPI_File_get_size(handle_, &size), "MPI_File_get_size", 0, 0);
    return static_cast<Bytes>(size);
  }
  void set_size(Bytes size) override {
    check(PMPI_File_set_size(handle_, static_cast<MPI_Offset>(size)), "MPI_File_set_size", size, 0);
  }
  void sync() override { check(PMPI_File_sync(handle_), "MPI_File_sync", 0, 0); }
  void close() override {
    if (handle_ == MPI_FILE_NULL) return;
    check(PMPI_File_close(&handle_), "MPI_File_close", 0, 0);
  }

 private:
  // The library's status, or ours when it passed MPI_STATUS_IGNORE (reads need the count).
  MPI_Status* status() {
    return transfer_.status == MPI_STATUS_IGNORE ? &own_status_ : transfer_.status;
  }
  Bytes read() {
    int count = 0;
    MPI_Get_count(status(), MPI_BYTE, &count);
    return count == MPI_UNDEFINED ? 0 : static_cast<Bytes>(count);
  }
  void check(int rc, const char* operation, Bytes offset, Bytes length) {
    rc_ = rc;
    CheckMpiIo(rc, operation, path_, offset, length);
  }

  MPI_File handle_;
  std::string path_;
  MpiTransfer transfer_;
  MPI_Status own_status_{};
  int rc_ = MPI_SUCCESS;
};

// Opens the library's file with the library's own arguments.
class LibraryOpener final : public storage::SharedFileOpener {
 public:
  LibraryOpener(MPI_Comm comm, int amode, MPI_Info info)
      : comm_(comm), amode_(amode), info_(info) {}
  std::unique_ptr<storage::SharedFile> open(const std::string& path) override {
    MPI_File handle = MPI_FILE_NULL;
    rc_ = PMPI_File_open(comm_, path.c_str(), amode_, info_, &handle);
    CheckMpiIo(rc_, "MPI_File_open", path, 0, 0);
    auto file = std::make_unique<LibraryFile>(handle, path);
    opened_ = file.get();
    return file;
  }
  LibraryFile* opened() const { return opened_; }
  int last_rc() const { return rc_; }

 private:
  MPI_Comm comm_;
  int amode_;
  MPI_Info info_;
  LibraryFile* opened_ = nullptr;
  int rc_ = MPI_SUCCESS;
};

struct RoutedFile {
  std::unique_ptr<storage::SharedFile> top;  // what env.open_shared returned
  LibraryFile* bottom = nullptr;             // owned by the chain
};

// The active capture and its routed files, by handle.
struct Routing {
  std::mutex mutex;
  MpiIoCapture* capture = nullptr;
  std::map<MPI_File, std::unique_ptr<RoutedFile>> files;
};

Routing& TheRouting() {
  static Routing routing;
  return routing;
}

// The routed file of `handle` and the capture, or {nullptr, nullptr}.
std::pair<RoutedFile*, MpiIoCapture*> Find(MPI_File handle) {
  Routing& routing = TheRouting();
  const std::lock_guard lock(routing.mutex);
  const auto it = routing.files.find(handle);
  if (it == routing.files.end()) return {nullptr, nullptr};
  return {it->second.get(), routing.capture};
}

int FailedRc(int library_rc) { return library_rc != MPI_SUCCESS ? library_rc : MPI_ERR_IO; }

// Runs `routed` on the chain of `handle` with the library's `transfer`, or `direct` when the file
// is not routed.
template <typename Routed, typename Direct>
int Dispatch(MPI_File handle, const MpiTransfer& transfer, const Routed& routed,
             const Direct& direct) {
  const auto [file, capture] = Find(handle);
  if (file == nullptr) return direct();
  file->bottom->expect(transfer);
  const Bytes bytes = transfer.bytes();
  if (!capture->run([&] { routed(*file->top, bytes); })) return FailedRc(file->bottom->last_rc());
  if (transfer.data != nullptr) capture->add_written(bytes);
  return MPI_SUCCESS;
}

}  // namespace

MpiIoCapture::MpiIoCapture(storage::Env& env, std::string path)
    : env_(env), path_(std::move(path)) {
  Routing& routing = TheRouting();
  const std::lock_guard lock(routing.mutex);
  if (routing.capture != nullptr) {
    throw InternalError("MPI-IO capture of " + path_ + " while " + routing.capture->path() +
                        " is captured");
  }
  routing.capture = this;
}

MpiIoCapture::~MpiIoCapture() {
  Routing& routing = TheRouting();
  const std::lock_guard lock(routing.mutex);
  routing.capture = nullptr;
  routing.files.clear();  // files still open are abandoned (LibraryFile does not close)
}

bool MpiIoCapture::run(const std::function<void()>& call) {
  try {
    call();
    return true;
  } catch (...) {
    if (!failure_) failure_ = std::current_exception();
    return false;
  }
}

}  // namespace dlbench::storage

// The entry points parallel HDF5 calls (nm -D libhdf5.so | grep MPI_File). Signatures as <mpi.h>.
using dlbench::Bytes;
using dlbench::storage::Dispatch;
using dlbench::storage::MpiTransfer;
using dlbench::storage::SharedFile;

extern "C" int MPI_File_open(MPI_Comm comm, const char* filename, int amode, MPI_Info info,
                             MPI_File* fh) {
  auto& routing = dlbench::storage::TheRouting();
  dlbench::storage::MpiIoCapture* capture = nullptr;
  {
    const std::lock_guard lock(routing.mutex);
    if (routing.capture != nullptr && routing.capture->path() == filename) {
      capture = routing.capture;
    }
  }
  if (capture == nullptr) return PMPI_File_open(comm, filename, amode, info, fh);
  dlbench::storage::LibraryOpener opener(comm, amode, info);
  std::unique_ptr<SharedFile> top;
  if (!capture->run([&] { top = capture->env().open_shared(filename, opener); })) {
    return dlbench::storage::FailedRc(opener.last_rc());
  }
  *fh = opener.opened()->handle();
  const std::lock_guard lock(routing.mutex);
  routing.files[*fh] = std::make_unique<dlbench::storage::RoutedFile>(
      dlbench::storage::RoutedFile{std::move(top), opener.opened()});
  return MPI_SUCCESS;
}

extern "C" int MPI_File_close(MPI_File* fh) {
  const auto [file, capture] = dlbench::storage::Find(*fh);
  if (file == nullptr) return PMPI_File_close(fh);
  const bool closed = capture->run([&] { file->top->close(); });
  const int rc = closed ? MPI_SUCCESS : dlbench::storage::FailedRc(file->bottom->last_rc());
  auto& routing = dlbench::storage::TheRouting();
  const std::lock_guard lock(routing.mutex);
  routing.files.erase(*fh);
  *fh = MPI_FILE_NULL;
  return rc;
}

extern "C" int MPI_File_write_at_all(MPI_File fh, MPI_Offset offset, const void* buf, int count,
                                     MPI_Datatype datatype, MPI_Status* status) {
  const MpiTransfer transfer{offset, buf, nullptr, count, datatype, status};
  return Dispatch(
      fh, transfer,
      [&](SharedFile& file, Bytes bytes) {
        file.write_at_all(static_cast<Bytes>(offset), buf, bytes);
      },
      [&] { return PMPI_File_write_at_all(fh, offset, buf, count, datatype, status); });
}

extern "C" int MPI_File_write_at(MPI_File fh, MPI_Offset offset, const void* buf, int count,
                                 MPI_Datatype datatype, MPI_Status* status) {
  const MpiTransfer transfer{offset, buf, nullptr, count, datatype, status};
  return Dispatch(
      fh, transfer,
      [&](SharedFile& file, Bytes bytes) { file.write_at(static_cast<Bytes>(offset), buf, bytes); },
      [&] { return PMPI_File_write_at(fh, offset, buf, count, datatype, status); });
}

extern "C" int MPI_File_read_at(MPI_File fh, MPI_Offset offset, void* buf, int count,
                                MPI_Datatype datatype, MPI_Status* status) {
  const MpiTransfer transfer{offset, nullptr, buf, count, datatype, status};
  return Dispatch(
      fh, transfer,
      [&](SharedFile& file, Bytes bytes) { file.read_at(static_cast<Bytes>(offset), buf, bytes); },
      [&] { return PMPI_File_read_at(fh, offset, buf, count, datatype, status); });
}

extern "C" int MPI_File_read_at_all(MPI_File fh, MPI_Offset offset, void* buf, int count,
                                    MPI_Datatype datatype, MPI_Status* status) {
  const MpiTransfer transfer{offset, nullptr, buf, count, datatype, status};
  return Dispatch(
      fh, transfer,
      [&](SharedFile& file, Bytes bytes) {
        file.read_at_all(static_cast<Bytes>(offset), buf, bytes);
      },
      [&] { return PMPI_File_read_at_all(fh, offset, buf, count, datatype, status); });
}

extern "C" int MPI_File_get_size(MPI_File fh, MPI_Offset* size) {
  return Dispatch(
      fh, MpiTransfer{},
      [&](SharedFile& file, Bytes) { *size = static_cast<MPI_Offset>(file.size()); },
      [&] { return PMPI_File_get_size(fh, size); });
}

extern "C" int MPI_File_set_size(MPI_File fh, MPI_Offset size) {
  return Dispatch(
      fh, MpiTransfer{}, [&](SharedFile& file, Bytes) { file.set_size(static_cast<Bytes>(size)); },
      [&] { return PMPI_File_set_size(fh, size); });
}

extern "C" int MPI_File_sync(MPI_File fh) {
  return Dispatch(
      fh, MpiTransfer{}, [&](SharedFile& file, Bytes) { file.sync(); },
      [&] { return PMPI_File_sync(fh); });
}
