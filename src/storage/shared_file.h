// A file that every process of a group opens, writes and closes together: the one data file that
// all ranks write in slices when there are no more files than ranks
// (workflow/shared_file_writer.h), and the file parallel HDF5 writes through its MPI-IO driver
// (formats/hdf5/hdf5_shared_writer.h). The bytes are moved by a parallel I/O library (MPI-IO),
// whose implementation is the only part of storage/ that includes <mpi.h>: MpiIoOpener
// (mpiio_file.h) opens the files of dlbench's own shared writes, MpiIoCapture (mpiio_capture.h)
// those parallel HDF5 opens itself. Either way
// the file is opened through Env::open_shared, so every Env wrapper (counting, tiers, fault
// injection, the tracer) sees, counts, throttles and can fail these bytes as it does a
// WritableFile's; wrappers derive from SharedFileWrapper (storage/env_wrapper.h) and override only
// what they change.
//
// Contract:
// - Collective methods (marked) are called by every process of the group, in the same order; a
//   process with nothing to write still calls write_at_all with 0 bytes. The others are
//   independent (one process alone).
// - Offsets and lengths are bytes. A library may have set a file view (parallel HDF5 does, for
//   collective writes of noncontiguous chunks): the offset is then relative to that view, and the
//   length is still the bytes moved.
// - Thread safety: a SharedFile is used by one thread at a time (the caller orders calls; MPI-IO
//   file handles are not shared between threads). Different SharedFiles are independent.
// - Lifetimes: the opener outlives the files it opened (it refers to the group's communicator); a
//   file opened through a wrapper Env refers to that Env, which outlives it.
// - Failure: an error is Error(kIo) naming the path, the operation and the offset. When one
//   process fails inside a collective, the others wait in it: the failing process ends the job
//   (app::RunGuarded's MPI_Abort). So a file that was not closed is abandoned by its destructor,
//   never closed there (closing is collective and would wait forever); nothing is renamed to its
//   final name, which is what keeps incomplete files detectable.
#pragma once

#include <memory>
#include <string>

#include "util/units.h"

namespace dlbench::storage {

class SharedFile {
 public:
  virtual ~SharedFile() = default;
  virtual const std::string& path() const = 0;
  // Collective: writes `length` bytes of `data` at `offset` (this process's own range).
  virtual void write_at_all(Bytes offset, const void* data, Bytes length) = 0;
  // Independent write (parallel HDF5's metadata, written by one process).
  virtual void write_at(Bytes offset, const void* data, Bytes length) = 0;
  // Independent and collective reads (parallel HDF5 reads back what it wrote); return the bytes
  // read, less than `length` only at the end of the file.
  virtual Bytes read_at(Bytes offset, void* data, Bytes length) = 0;
  virtual Bytes read_at_all(Bytes offset, void* data, Bytes length) = 0;
  // The file's size (independent).
  virtual Bytes size() = 0;
  // Collective: truncates or extends the file to `size` bytes.
  virtual void set_size(Bytes size) = 0;
  // Collective: makes what every process wrote durable (fsync).
  virtual void sync() = 0;
  // Collective: closes the file, reporting a failed close. Call it explicitly on success.
  virtual void close() = 0;
};

// Opens shared files for one group of processes (MpiIoOpener over a communicator). Only
// Env::open_shared calls it, at the bottom of the wrapper chain.
class SharedFileOpener {
 public:
  virtual ~SharedFileOpener() = default;
  // Collective: opens `path` for writing, creating it if absent, without truncating.
  virtual std::unique_ptr<SharedFile> open(const std::string& path) = 0;
};

}  // namespace dlbench::storage
