#include "storage/raw_syscalls.h"

#include <dlfcn.h>

#include <initializer_list>

namespace dlbench::storage {
namespace {

// Whether the first definition of any of the read path's calls is not glibc's own: a library
// loaded before libc (LD_PRELOAD) wraps it, as Darshan's and DFTracer's I/O instrumentation do.
bool ReadPathCallsInterposed() {
  void* libc = ::dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
  if (libc == nullptr) return true;  // not the glibc this was written for: keep its wrappers
  bool interposed = false;
  for (const char* name : {"open", "open64", "openat", "openat64", "pread", "pread64", "close"}) {
    if (::dlsym(RTLD_DEFAULT, name) != ::dlsym(libc, name)) interposed = true;
  }
  ::dlclose(libc);
  return interposed;
}

}  // namespace

const bool kReadPathCallsInterposed = ReadPathCallsInterposed();

}  // namespace dlbench::storage
