#include "formats/hdf5/hdf5_env_driver.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <utility>

#include "storage/file.h"
#include "util/error.h"

namespace dlbench::formats::hdf5 {
namespace {

// The largest address an off_t reaches, as sec2 has it.
constexpr haddr_t kMaxAddress = (haddr_t{1} << (8 * sizeof(off_t) - 1)) - 1;

// One open file. HDF5 sees its first member, hence the plain struct around the C++ state.
struct State {
  EnvDriverInfo info{};
  std::string path;
  bool writable = false;
  std::unique_ptr<storage::ReadableFile> in;   // read-only files: at open; else at the first read
  std::unique_ptr<storage::WritableFile> out;  // created at open, else at the first write
  haddr_t eoa = 0;                             // end of allocation, HDF5's
  haddr_t eof = 0;                             // the file's length
};
struct DriverFile {
  H5FD_t base;  // first: HDF5's part, filled in by the library
  State* state;
};

State& Of(H5FD_t* file) { return *reinterpret_cast<DriverFile*>(file)->state; }
const State& Of(const H5FD_t* file) { return *reinterpret_cast<const DriverFile*>(file)->state; }

// Guarded by the hdf5::Lock every driver call runs under.
std::exception_ptr kept_error;
bool deferring = false;

// Keeps the error being handled and puts its message on HDF5's error stack; returns `failure`.
// While closing, keeps only the first error (the cause; HDF5 goes on after it) and returns
// `success`. Otherwise HDF5 stops at a failure, unless it tries again (opening a file it is
// creating), when the last error is the one that counts.
template <typename T>
T Fail(const char* function, hid_t minor, T failure, T success) {
  if (deferring) {
    if (!kept_error) kept_error = std::current_exception();
    return success;
  }
  kept_error = std::current_exception();
  std::string message = "dlbench env driver";
  try {
    throw;
  } catch (const std::exception& e) {
    message = e.what();
  } catch (...) {
  }
  H5Epush2(H5E_DEFAULT, __FILE__, function, __LINE__, H5E_ERR_CLS, H5E_VFL, minor, "%s",
           message.c_str());
  return failure;
}

storage::WritableFile& Output(State& s) {
  if (!s.writable) throw InternalError("hdf5 wrote to read-only " + s.path);
  if (!s.out) s.out = s.info.env->open_write(s.path);
  return *s.out;
}

void* CopyInfo(const void* info) {
  return new EnvDriverInfo(*static_cast<const EnvDriverInfo*>(info));
}

herr_t FreeInfo(void* info) {
  delete static_cast<EnvDriverInfo*>(info);
  return 0;
}

void* GetInfo(H5FD_t* file) { return CopyInfo(&Of(file).info); }

H5FD_t* OpenFile(const char* name, unsigned flags, hid_t fapl, haddr_t maxaddr) {
  try {
    const auto* info = static_cast<const EnvDriverInfo*>(H5Pget_driver_info(fapl));
    if (info == nullptr || name == nullptr || maxaddr == 0 || maxaddr == HADDR_UNDEF) {
      throw InternalError("hdf5 env driver opened without its file-access list");
    }
    auto state = std::make_unique<State>();
    state->info = *info;
    state->path = name;
    state->writable = (flags & H5F_ACC_RDWR) != 0;
    storage::Env& env = *info->env;
    if (!state->writable) {
      state->in = env.open_read(state->path);
      state->eof = state->in->size();
    } else if ((flags & H5F_ACC_TRUNC) != 0) {
      state->out = env.create(state->path);
    } else if (env.exists(state->path)) {
      if ((flags & H5F_ACC_EXCL) != 0) {
        throw Error(ExitCode::kIo, "hdf5 create " + state->path + ": the file exists");
      }
      state->eof = env.file_size(state->path);
    } else if ((flags & H5F_ACC_CREAT) != 0) {
      state->out = env.create(state->path);
    } else {
      // HDF5 tries this first when it creates a file, then asks again with H5F_ACC_CREAT.
      throw Error(ExitCode::kIo, "hdf5 open " + state->path + ": no such file");
    }
    auto* file = new DriverFile{};
    file->state = state.release();
    return &file->base;
  } catch (...) {
    return Fail(__func__, H5E_CANTOPENFILE, static_cast<H5FD_t*>(nullptr),
                static_cast<H5FD_t*>(nullptr));
  }
}

herr_t CloseFile(H5FD_t* file) {
  const std::unique_ptr<DriverFile> owner(reinterpret_cast<DriverFile*>(file));
  const std::unique_ptr<State> state(owner->state);
  try {
    if (state->out) {
      if (state->info.sync_on_close) state->out->sync();
      state->out->close();
    }
    return 0;
  } catch (...) {
    return Fail(__func__, H5E_CANTCLOSEFILE, herr_t{-1}, herr_t{0});
  }
}

// Files are never shared between opens: each reader keeps its own tally (HDF5 would otherwise
// route a second open of a path through the first one's driver file).
int Compare(const H5FD_t* a, const H5FD_t* b) {
  const State* x = &Of(a);
  const State* y = &Of(b);
  return std::less<const State*>()(x, y) ? -1 : (x == y ? 0 : 1);
}

herr_t Query(const H5FD_t* file, unsigned long* flags) {
  if (flags != nullptr) {
    // sec2's, but for the POSIX descriptor handle and SWMR, which an Env file does not offer,
    // and without the metadata accumulator on a file opened for reading: on damaged metadata
    // (a local heap of an absurd size) HDF5 1.10.8's accumulator copied into a buffer it had
    // failed to allocate, a SIGSEGV in H5F__accum_read under H5Lexists (found by fuzzing; h5py,
    // on sec2, dies on the same file). Without it the read goes to Read() below and HDF5 reports
    // "bad local heap signature". Writers keep it: it gathers their small metadata writes.
    *flags = H5FD_FEAT_AGGREGATE_METADATA | H5FD_FEAT_DATA_SIEVE | H5FD_FEAT_AGGREGATE_SMALLDATA |
             H5FD_FEAT_DEFAULT_VFD_COMPATIBLE;
    if (file == nullptr || Of(file).writable) *flags |= H5FD_FEAT_ACCUMULATE_METADATA;
  }
  return 0;
}

haddr_t GetEoa(const H5FD_t* file, H5FD_mem_t) { return Of(file).eoa; }

herr_t SetEoa(H5FD_t* file, H5FD_mem_t, haddr_t address) {
  Of(file).eoa = address;
  return 0;
}

haddr_t GetEof(const H5FD_t* file, H5FD_mem_t) { return Of(file).eof; }

herr_t GetHandle(H5FD_t* file, hid_t, void** handle) {
  *handle = &Of(file);
  return 0;
}

herr_t Read(H5FD_t* file, H5FD_mem_t, hid_t, haddr_t address, size_t size, void* buffer) {
  State& s = Of(file);
  try {
    Bytes got = 0;
    // Past the end of the file there is nothing to ask storage for: zeros, as sec2 gives.
    if (address < s.eof) {
      if (!s.in) s.in = s.info.env->open_read(s.path);
      got = s.in->read_at(address, buffer, size);
      if (s.info.tally != nullptr) s.info.tally->read += got;
    }
    std::memset(static_cast<std::byte*>(buffer) + got, 0, size - got);
    return 0;
  } catch (...) {
    return Fail(__func__, H5E_READERROR, herr_t{-1}, herr_t{0});
  }
}

herr_t Write(H5FD_t* file, H5FD_mem_t, hid_t, haddr_t address, size_t size, const void* buffer) {
  State& s = Of(file);
  try {
    Output(s).write_at(address, buffer, size);
    s.eof = std::max<haddr_t>(s.eof, address + size);
    if (s.info.tally != nullptr) s.info.tally->written += size;
    return 0;
  } catch (...) {
    return Fail(__func__, H5E_WRITEERROR, herr_t{-1}, herr_t{0});
  }
}

// HDF5 calls this before closing a file it wrote: the file ends where its allocation ends.
herr_t Truncate(H5FD_t* file, hid_t, hbool_t) {
  State& s = Of(file);
  try {
    if (s.eoa != s.eof) {
      Output(s).truncate(s.eoa);
      s.eof = s.eoa;
    }
    return 0;
  } catch (...) {
    return Fail(__func__, H5E_SEEKERROR, herr_t{-1}, herr_t{0});
  }
}

hid_t& RegisteredId() {
  static hid_t id = H5I_INVALID_HID;  // guarded by the hdf5::Lock
  return id;
}

herr_t Terminate() {
  RegisteredId() = H5I_INVALID_HID;
  return 0;
}

H5FD_class_t MakeClass() {
  H5FD_class_t c{};
  c.name = "dlbench_env";
  c.maxaddr = kMaxAddress;
  c.fc_degree = H5F_CLOSE_WEAK;
  c.terminate = Terminate;
  c.fapl_size = sizeof(EnvDriverInfo);
  c.fapl_get = GetInfo;
  c.fapl_copy = CopyInfo;
  c.fapl_free = FreeInfo;
  c.open = OpenFile;
  c.close = CloseFile;
  c.cmp = Compare;
  c.query = Query;
  c.get_eoa = GetEoa;
  c.set_eoa = SetEoa;
  c.get_eof = GetEof;
  c.get_handle = GetHandle;
  c.read = Read;
  c.write = Write;
  c.truncate = Truncate;
  const H5FD_mem_t map[H5FD_MEM_NTYPES] = H5FD_FLMAP_DICHOTOMY;
  std::copy(std::begin(map), std::end(map), std::begin(c.fl_map));
  return c;
}

}  // namespace

hid_t EnvDriver(const Lock& lock) {
  static const H5FD_class_t kClass = MakeClass();
  hid_t& id = RegisteredId();
  if (id == H5I_INVALID_HID) id = Check(lock, H5FDregister(&kClass), "register env driver", "");
  return id;
}

std::exception_ptr TakeDriverError(const Lock&) { return std::exchange(kept_error, nullptr); }

DeferredFailures::DeferredFailures(const Lock&) : outer_(!deferring) { deferring = true; }

DeferredFailures::~DeferredFailures() {
  if (outer_) deferring = false;
}

}  // namespace dlbench::formats::hdf5
