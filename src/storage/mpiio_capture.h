// Routes the MPI-IO that a library does itself — parallel HDF5's MPI-IO driver
// (formats/hdf5/hdf5_shared_writer.cpp) — through a storage::Env, by the MPI profiling interface.
// mpiio_capture.cpp defines the MPI_File_* entry points parallel HDF5 calls (open, close,
// write_at, write_at_all, read_at, read_at_all, get_size, set_size, sync), each of which calls
// the matching PMPI_File_*. While an MpiIoCapture is alive, the file opened at its path goes
// through env.open_shared and every call on it through the storage::SharedFile that returns, so
// the Env's wrappers (counting, tiers, fault injection) see, count, throttle and can fail the
// library's own bytes, metadata included; the library's exact arguments (datatypes, file views)
// reach PMPI unchanged. Any other call — another path, no capture, MPI_File_set_view and the
// other entry points — goes straight to MPI.
//
// The definitions win over libmpi's because the executable defines them (dlbench_mpi is linked
// statically, and this file's object comes with MpiIoCapture) and the linker exports an
// executable's definitions that a linked shared library (libhdf5) references.
//
// One capture at a time per process, used by one thread at a time (parallel HDF5 is entered under
// formats::hdf5::Lock). `env` outlives the capture. A routed file still open when the capture
// ends (a failed write) is abandoned: its later calls go straight to MPI.
#pragma once

#include <exception>
#include <functional>
#include <string>

#include "storage/file.h"
#include "util/units.h"

namespace dlbench::storage {

class MpiIoCapture {
 public:
  // Throws Error(kInternal) if another capture is active.
  MpiIoCapture(storage::Env& env, std::string path);
  ~MpiIoCapture();
  MpiIoCapture(const MpiIoCapture&) = delete;
  MpiIoCapture& operator=(const MpiIoCapture&) = delete;

  const std::string& path() const { return path_; }
  storage::Env& env() const { return env_; }

  // The first error a routed call met (an Error(kIo) naming the path and the operation), or null.
  // The call returned an MPI error code to the library, which fails in turn: rethrow this instead
  // of the library's message.
  std::exception_ptr failure() const { return failure_; }
  // Bytes this process wrote through routed calls (write_at and write_at_all, metadata included).
  Bytes bytes_written() const { return bytes_written_; }

  // For the entry points: runs a routed call; returns true, or records its error (the first one
  // is kept) and returns false. add_written counts a routed write that succeeded.
  bool run(const std::function<void()>& call);
  void add_written(Bytes bytes) { bytes_written_ += bytes; }

 private:
  storage::Env& env_;
  std::string path_;
  std::exception_ptr failure_;
  Bytes bytes_written_ = 0;
};

}  // namespace dlbench::storage
