// Entering the HDF5 library: the one lock, RAII for its identifiers, and the conversion of HDF5
// failures into dlbench errors.
//
// Debian's HDF5 is built without --enable-threadsafe: its package initialisation, API-context
// stack, ID tables, free lists and error stack are process globals without locks. Two threads
// inside the library at once corrupt them — seen as SIGSEGV, "not a datatype" on a good file,
// and "HDF5: infinite loop closing library" at exit when reader threads opened files. So dlbench
// enters the library only while the calling thread holds a `Lock`:
// - every function here (and in hdf5_creation.h) that calls HDF5 takes `const Lock&` as proof
//   that its caller holds it; code outside src/formats/hdf5/ and the shared-file writer never
//   sees <hdf5.h>;
// - a `Handle` closes its identifier under a Lock of its own (the mutex is recursive, so this
//   costs nothing when the caller holds it), so handles released by stack unwinding, by member
//   destructors after a throwing constructor, or by an owner destroyed on another thread are
//   closed under the lock too; it ignores a failed close, which Close() reports;
// - HDF5's file I/O runs through storage::Env (hdf5_env_driver.h), inside these locked calls;
// - the first Lock taken in the process turns HDF5's automatic error printing off, before any
//   other call can reach the library.
// HDF5's predefined type identifiers (H5T_STD_U8LE, ...) are macros that call H5open(); take them
// only through FileType() / MemoryType().
#pragma once

#include <hdf5.h>

#include <string>
#include <vector>

#include "formats/format.h"
#include "util/units.h"

namespace dlbench::formats::hdf5 {

// Holds the process-wide HDF5 lock for its lifetime (recursive: nested Locks on one thread are
// allowed). Not movable: a Lock proves that the thread which made it holds the library.
class Lock {
 public:
  Lock();
  ~Lock();
  Lock(const Lock&) = delete;
  Lock& operator=(const Lock&) = delete;
};

// Owns one HDF5 identifier and closes it with `closer` under the library lock.
class Handle {
 public:
  using Closer = herr_t (*)(hid_t);
  Handle() = default;
  Handle(hid_t id, Closer close) : id_(id), closer_(close) {}
  Handle(Handle&& other) noexcept : id_(other.id_), closer_(other.closer_) { other.id_ = -1; }
  Handle& operator=(Handle&& other) noexcept {
    if (this != &other) {
      reset();
      id_ = other.id_;
      closer_ = other.closer_;
      other.id_ = -1;
    }
    return *this;
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  ~Handle() { reset(); }
  hid_t get() const { return id_; }
  Closer closer() const { return closer_; }
  // Gives up ownership, for a close whose status must be checked (Close()).
  hid_t release() {
    const hid_t id = id_;
    id_ = -1;
    return id;
  }
  void reset() noexcept;

 private:
  hid_t id_ = -1;
  Closer closer_ = nullptr;
};

// When `status` < 0, rethrows the error the Env driver kept for this call (the Env's own Error:
// its code, path, operation and errno), else throws Error(kIo) "hdf5 <operation> <path>: <HDF5's
// innermost message>"; and clears HDF5's error stack.
hid_t Check(const Lock& lock, hid_t status, const char* operation, const std::string& path);
// Closes `handle` now, reporting a failure as Check() does. Closes of objects HDF5 wrote (files,
// datasets) go through here: an error while HDF5 flushes them (a failed write, truncation or
// fsync of the Env) must not be lost in a destructor.
void Close(const Lock& lock, Handle& handle, const char* operation, const std::string& path);
// Check() of a call that makes an identifier, then the Handle that closes it with `closer`.
Handle Open(const Lock& lock, hid_t id, Handle::Closer closer, const char* operation,
            const std::string& path);
// Bytes HDF5 moved for the files opened with one FileAccess list: counted by the Env driver
// under the Lock; read them under it too, or after the files are closed.
struct IoTally {
  Bytes read = 0;
  Bytes written = 0;
};

// A file-access property list for the file at `path` (named in errors): the Env driver
// (hdf5_env_driver.h), so HDF5 reads, writes and truncates the file through `env`, and
// library-version bounds [v18, v110] so files open with HDF5 1.8+ readers (h5py, older clusters)
// while using 1.10 features where needed. `tally`, when not null, adds up the bytes moved;
// `sync_on_close` fsyncs the file (through `env`) before HDF5 closes it. `env` and `tally` must
// outlive every file opened with the list.
Handle FileAccess(const Lock& lock, storage::Env& env, const std::string& path,
                  IoTally* tally = nullptr, bool sync_on_close = false);
// HDF5 file type and memory type of a NumPy dtype; throws Error(kUsage) for unsupported ones.
hid_t FileType(const Lock& lock, const std::string& dtype);
hid_t MemoryType(const Lock& lock, const std::string& dtype);
// Shape of one sample inside each records_j dataset.
std::vector<hsize_t> DatasetSampleDims(const FileSpec& spec);
std::string RecordsName(int j);

}  // namespace dlbench::formats::hdf5
