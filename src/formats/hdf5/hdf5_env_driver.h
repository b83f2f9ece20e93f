// The HDF5 virtual file driver over storage::Env (HDF5 1.10's H5FD_class_t): the files HDF5
// opens with hdf5::FileAccess() are read, written and truncated by an Env, so HDF5's I/O — its
// metadata included — is counted, throttled by tiers and failed on purpose like every other
// byte. It behaves as HDF5's default sec2 driver does (the same feature flags, so HDF5 asks it
// for the same reads and writes; zeros past the end of the file; the file cut or extended to the
// end of allocation at close), but takes no flock (HDF5's file locking): dlbench's files appear
// under their names only once published whole (storage/file.h), so no reader meets a file being
// written.
//
// The driver runs inside HDF5 calls, so under the hdf5::Lock of their caller: its Env calls come
// one at a time, the Env and its files being used as storage/file.h allows (a file HDF5 writes
// is also read back, through a second, readable file of the same path). An error thrown by
// the Env cannot cross the C library: the driver keeps it (one slot, guarded by the Lock) and
// fails the HDF5 call, and hdf5::Check() rethrows the kept error unchanged (its exit code, path,
// operation and errno) instead of HDF5's summary of it.
#pragma once

#include <exception>

#include "formats/hdf5/hdf5_handles.h"

namespace dlbench::formats::hdf5 {

// What a FileAccess list hands the driver (HDF5 copies it into the list).
struct EnvDriverInfo {
  storage::Env* env;
  IoTally* tally;  // may be null
  bool sync_on_close;
};

// The driver's identifier, registered with HDF5 on first use (again if HDF5 was closed since).
hid_t EnvDriver(const Lock& lock);

// The first error the driver kept since the last call, or null; empties the slot. Check()
// calls it after every HDF5 call, so an error HDF5 recovered from (its second attempt at opening
// a file) is not reported later.
std::exception_ptr TakeDriverError(const Lock& lock);

// While one lives, a failing Env call is kept but reported to HDF5 as a success. For closes
// only: when a close fails inside HDF5 1.10, the library frees the object but keeps its
// identifier, and the next close of it (a retry, or the library's own at exit) crashes. So
// closes always complete in HDF5, and Close()/Handle::reset() take the kept error afterwards.
class DeferredFailures {
 public:
  explicit DeferredFailures(const Lock& lock);
  ~DeferredFailures();
  DeferredFailures(const DeferredFailures&) = delete;
  DeferredFailures& operator=(const DeferredFailures&) = delete;

 private:
  bool outer_;
};

}  // namespace dlbench::formats::hdf5
