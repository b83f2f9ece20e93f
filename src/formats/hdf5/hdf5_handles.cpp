#include "formats/hdf5/hdf5_handles.h"

#include <mutex>

#include "formats/hdf5/hdf5_env_driver.h"
#include "util/error.h"

namespace dlbench::formats::hdf5 {
namespace {

std::recursive_mutex& LibraryMutex() {
  static std::recursive_mutex mutex;
  return mutex;
}

herr_t KeepInnermost(unsigned n, const H5E_error2_t* error, void* data) {
  auto* message = static_cast<std::string*>(data);
  if (n == 0 && error->desc != nullptr) *message = error->desc;
  return 0;
}

}  // namespace

Lock::Lock() {
  LibraryMutex().lock();
  // The first entry into the library, under the lock: nothing may print HDF5's error stack.
  static const bool kSilenced = [] { return H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr) >= 0; }();
  static_cast<void>(kSilenced);
}

Lock::~Lock() { LibraryMutex().unlock(); }

void Handle::reset() noexcept {
  if (id_ >= 0 && closer_ != nullptr) {
    const Lock lock;
    const DeferredFailures deferred(lock);
    // A failed close (a damaged file, a failing Env) leaves its message on the error stack or in
    // the driver: drop it, the error that led here is already being reported.
    if (closer_(id_) < 0) H5Eclear2(H5E_DEFAULT);
    TakeDriverError(lock);
  }
  id_ = -1;
}

void Close(const Lock& lock, Handle& handle, const char* operation, const std::string& path) {
  const Handle::Closer closer = handle.closer();
  const hid_t id = handle.release();
  herr_t status = 0;
  {
    const DeferredFailures deferred(lock);
    status = closer(id);
  }
  if (std::exception_ptr error = TakeDriverError(lock)) {
    H5Eclear2(H5E_DEFAULT);
    std::rethrow_exception(error);
  }
  Check(lock, status, operation, path);
}

hid_t Check(const Lock& lock, hid_t status, const char* operation, const std::string& path) {
  const std::exception_ptr driver_error = TakeDriverError(lock);
  if (status >= 0) return status;
  if (driver_error) {
    H5Eclear2(H5E_DEFAULT);
    std::rethrow_exception(driver_error);
  }
  std::string detail;
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, KeepInnermost, &detail);
  H5Eclear2(H5E_DEFAULT);
  throw Error(ExitCode::kIo, std::string("hdf5 ") + operation + " " + path +
                                 (detail.empty() ? "" : ": " + detail));
}

Handle Open(const Lock& lock, hid_t id, Handle::Closer closer, const char* operation,
            const std::string& path) {
  return Handle(Check(lock, id, operation, path), closer);
}

Handle FileAccess(const Lock& lock, storage::Env& env, const std::string& path, IoTally* tally,
                  bool sync_on_close) {
  Handle fapl = Open(lock, H5Pcreate(H5P_FILE_ACCESS), H5Pclose, "property list", path);
  const EnvDriverInfo info{&env, tally, sync_on_close};
  Check(lock, H5Pset_driver(fapl.get(), EnvDriver(lock), &info), "set env driver", path);
  Check(lock, H5Pset_libver_bounds(fapl.get(), H5F_LIBVER_V18, H5F_LIBVER_V110),
        "set version bounds", path);
  return fapl;
}

hid_t FileType(const Lock&, const std::string& dtype) {
  if (dtype == "uint8") return H5T_STD_U8LE;
  if (dtype == "int8") return H5T_STD_I8LE;
  if (dtype == "uint16") return H5T_STD_U16LE;
  if (dtype == "int16") return H5T_STD_I16LE;
  if (dtype == "uint32") return H5T_STD_U32LE;
  if (dtype == "int32") return H5T_STD_I32LE;
  if (dtype == "uint64") return H5T_STD_U64LE;
  if (dtype == "int64") return H5T_STD_I64LE;
  if (dtype == "float32") return H5T_IEEE_F32LE;
  if (dtype == "float64") return H5T_IEEE_F64LE;
  throw UsageError("hdf5 does not support record_element_type '" + dtype +
                   "' in dlbench (use an integer type, float32 or float64)");
}

hid_t MemoryType(const Lock& lock, const std::string& dtype) {
  // Little-endian hosts: the file types are the memory types.
  return FileType(lock, dtype);
}

std::vector<hsize_t> DatasetSampleDims(const FileSpec& spec) {
  std::vector<hsize_t> dims(spec.sample_dims.begin(), spec.sample_dims.end());
  const int k = spec.num_dset_per_record;
  if (k < 1) throw UsageError("hdf5.num_dset_per_record must be >= 1");
  if (spec.dims_from_record_dims && !dims.empty()) {
    if (dims[0] % static_cast<hsize_t>(k) != 0) {
      throw UsageError("record_dims[0] = " + std::to_string(dims[0]) +
                       " is not divisible by hdf5.num_dset_per_record = " + std::to_string(k));
    }
    dims[0] /= static_cast<hsize_t>(k);
    if (dims[0] == 1) dims.erase(dims.begin());
  }
  return dims;
}

std::string RecordsName(int j) { return "records_" + std::to_string(j); }

}  // namespace dlbench::formats::hdf5
