// The read path's system calls (open, pread, close) made directly, not through glibc's wrappers.
// In a process with more than one thread, glibc's wrappers of these cancellation points switch
// the thread to asynchronous cancellation around every call (two atomic read-modify-writes of the
// thread's cancel state), ~0.2 us per 4 KiB sample of the training read path (3 calls) on this
// project's 2-vCPU VM. dlbench never cancels a thread (no pthread_cancel), so the wrappers buy it
// nothing. Same contract as the libc functions: -1 with errno set on failure.
#pragma once

#include <fcntl.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

#include <cstddef>

namespace dlbench::storage {

inline int RawOpen(const char* path, int flags, mode_t mode) {
  return static_cast<int>(::syscall(SYS_openat, AT_FDCWD, path, flags, mode));
}

inline ssize_t RawPread(int fd, void* buffer, std::size_t length, off_t offset) {
#if defined(__LP64__)
  return ::syscall(SYS_pread64, fd, buffer, length, offset);
#else  // the offset is split over two registers, differently per ABI: let glibc do it
  return ::pread(fd, buffer, length, offset);
#endif
}

inline int RawClose(int fd) { return static_cast<int>(::syscall(SYS_close, fd)); }

}  // namespace dlbench::storage
