// A library to preload (LD_PRELOAD) into dlbench, as Darshan's and DFTracer's I/O instrumentation
// are at HPC sites: it wraps pread and pread64, counts the calls and prints the count at exit, for
// the cli test reads_seen_by_a_preloaded_wrapper (dlbench's read path must go through such a
// wrapper, not past it with raw system calls).
#include <dlfcn.h>
#include <sys/types.h>

#include <atomic>
#include <cstddef>
#include <cstdio>

namespace {

using PreadFunction = ssize_t (*)(int, void*, std::size_t, off_t);

std::atomic<long> calls{0};

PreadFunction Next(const char* name) {
  return reinterpret_cast<PreadFunction>(::dlsym(RTLD_NEXT, name));
}

struct ReportAtExit {
  ~ReportAtExit() { std::fprintf(stderr, "preload: %ld pread calls\n", calls.load()); }
} report;

}  // namespace

extern "C" ssize_t pread(int fd, void* buffer, std::size_t length, off_t offset) {
  static const PreadFunction next = Next("pread");
  ++calls;
  return next(fd, buffer, length, offset);
}

extern "C" ssize_t pread64(int fd, void* buffer, std::size_t length, off_t offset) {
  static const PreadFunction next = Next("pread64");
  ++calls;
  return next(fd, buffer, length, offset);
}
