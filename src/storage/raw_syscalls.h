// The read path's system calls (open, pread, close) made directly, not through glibc's wrappers.
// In a process with more than one thread, glibc's wrappers of these cancellation points switch
// the thread to asynchronous cancellation around every call (two atomic read-modify-writes of the
// thread's cancel state), ~0.2 us per 4 KiB sample of the training read path (3 calls) on this
// project's 2-vCPU VM. dlbench never cancels a thread (no pthread_cancel), so the wrappers buy it
// nothing. Same contract as the libc functions: -1 with errno set on failure.
// When a preloaded library wraps any of these calls (Darshan's or DFTracer's I/O instrumentation,
// which HPC sites load for every job), the libc functions are called instead, so that the
// wrapper sees every read (kReadPathCallsInterposed, found once at start-up).
#pragma once

#include <fcntl.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

#include <cstddef>

// The sanitizers intercept the libc functions (ThreadSanitizer follows each descriptor from open
// to close, AddressSanitizer checks pread's buffer): their builds keep them, as do 32-bit ABIs,
// where pread's offset is split over registers differently per ABI.
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__) || !defined(__LP64__)
#define DLBENCH_LIBC_SYSCALLS 1
#elif defined(__has_feature)  // clang
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer)
#define DLBENCH_LIBC_SYSCALLS 1
#endif
#endif

namespace dlbench::storage {

// True when the first definition of open, openat, pread or close (or their 64-bit names) in the
// process is not glibc's: something interposes on them.
extern const bool kReadPathCallsInterposed;

inline int RawOpen(const char* path, int flags, mode_t mode) {
#ifdef DLBENCH_LIBC_SYSCALLS
  return ::open(path, flags, mode);
#else
  if (kReadPathCallsInterposed) return ::open(path, flags, mode);
  return static_cast<int>(::syscall(SYS_openat, AT_FDCWD, path, flags, mode));
#endif
}

inline ssize_t RawPread(int fd, void* buffer, std::size_t length, off_t offset) {
#ifdef DLBENCH_LIBC_SYSCALLS
  return ::pread(fd, buffer, length, offset);
#else
  if (kReadPathCallsInterposed) return ::pread(fd, buffer, length, offset);
  return ::syscall(SYS_pread64, fd, buffer, length, offset);
#endif
}

inline int RawClose(int fd) {
#ifdef DLBENCH_LIBC_SYSCALLS
  return ::close(fd);
#else
  if (kReadPathCallsInterposed) return ::close(fd);
  return static_cast<int>(::syscall(SYS_close, fd));
#endif
}

}  // namespace dlbench::storage
