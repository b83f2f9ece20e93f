// RAII for HDF5 identifiers and the conversion of HDF5 failures into dlbench errors. HDF5's own
// error-stack printing is silenced once per process; the innermost message is kept instead.
#pragma once

#include <hdf5.h>

#include <mutex>
#include <string>
#include <vector>

#include "formats/format.h"

namespace dlbench::formats::hdf5 {

class Handle {
 public:
  using Closer = herr_t (*)(hid_t);
  Handle() = default;
  Handle(hid_t id, Closer closer) : id_(id), closer_(closer) {}
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
  // Gives up ownership, for a close whose status must be checked.
  hid_t release() {
    const hid_t id = id_;
    id_ = -1;
    return id;
  }
  void reset() {
    if (id_ >= 0 && closer_ != nullptr) closer_(id_);
    id_ = -1;
  }

 private:
  hid_t id_ = -1;
  Closer closer_ = nullptr;
};

// The HDF5 library (Debian's build is not thread-safe) is entered by one thread at a time:
// every HDF5 call, handle releases included, happens under this lock.
std::mutex& LibraryMutex();
// Turns off HDF5's automatic error printing (idempotent).
void SilenceErrorStack();
// Throws Error(kIo) "hdf5 <operation> <path>: <HDF5's innermost message>" when `status` < 0.
hid_t Check(hid_t status, const char* operation, const std::string& path);
// A file-access property list: sec2 driver, library-version bounds [v18, v110] so files open
// with HDF5 1.8+ readers (h5py, older clusters) while using 1.10 features where needed.
Handle FileAccess(const std::string& path);
// HDF5 file type and memory type of a NumPy dtype; throws Error(kUsage) for unsupported ones.
hid_t FileType(const std::string& dtype);
hid_t MemoryType(const std::string& dtype);
// Shape of one sample inside each records_j dataset (formats.md §8.1).
std::vector<hsize_t> DatasetSampleDims(const FileSpec& spec);
std::string RecordsName(int j);

}  // namespace dlbench::formats::hdf5
