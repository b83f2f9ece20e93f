#include "storage/mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csetjmp>
#include <csignal>
#include <cstring>
#include <mutex>

#include "util/error.h"

namespace dlbench::storage {
namespace {

// The copy a thread is doing out of a mapping, while it does it (mapped_file.h).
struct CopyGuard {
  sigjmp_buf* jump;
  const std::byte* begin;
  const std::byte* end;
};

// Read by the SIGBUS handler of the faulting thread: plain thread_local of the executable (no
// lazy initialisation), which a handler may read.
constinit thread_local const CopyGuard* active_copy = nullptr;

struct sigaction previous_sigbus {};

void ChainSigbus(int sig, siginfo_t* info, void* context) {
  if ((previous_sigbus.sa_flags & SA_SIGINFO) != 0 && previous_sigbus.sa_sigaction != nullptr) {
    previous_sigbus.sa_sigaction(sig, info, context);
    return;
  }
  if (previous_sigbus.sa_handler == SIG_IGN) return;
  if (previous_sigbus.sa_handler != SIG_DFL && previous_sigbus.sa_handler != nullptr) {
    previous_sigbus.sa_handler(sig);
    return;
  }
  // The default action: a fault re-executes the access and dies of it; a sent signal is resent.
  ::signal(SIGBUS, SIG_DFL);
  if (info == nullptr || info->si_code <= 0) ::raise(SIGBUS);
}

void OnSigbus(int sig, siginfo_t* info, void* context) {
  const CopyGuard* guard = active_copy;
  if (guard != nullptr && info != nullptr && info->si_code > 0) {
    const auto* at = static_cast<const std::byte*>(info->si_addr);
    if (at >= guard->begin && at < guard->end) siglongjmp(*guard->jump, 1);
  }
  ChainSigbus(sig, info, context);
}

void InstallSigbusHandler() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction action {};
    action.sa_sigaction = OnSigbus;
    action.sa_flags = SA_SIGINFO | SA_NODEFER | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    if (::sigaction(SIGBUS, &action, &previous_sigbus) != 0) {
      throw InternalError("sigaction(SIGBUS): " + std::string(std::strerror(errno)));
    }
  });
}

// The guarded copy: nothing with a destructor lives in this frame (siglongjmp skips them).
// Returns false when the mapping faulted.
[[gnu::noinline]] bool CopyOut(const std::byte* from, void* out, std::size_t n) {
  sigjmp_buf jump;
  const CopyGuard guard{&jump, from, from + n};
  if (sigsetjmp(jump, 0) != 0) {
    std::atomic_signal_fence(std::memory_order_seq_cst);
    active_copy = nullptr;
    return false;
  }
  active_copy = &guard;
  std::atomic_signal_fence(std::memory_order_seq_cst);
  std::memcpy(out, from, n);
  std::atomic_signal_fence(std::memory_order_seq_cst);
  active_copy = nullptr;
  return true;
}

}  // namespace

MappedFile::MappedFile(std::string path) : path_(std::move(path)) {
  InstallSigbusHandler();
  const int fd = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw IoError("open", path_, errno);
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int err = errno;
    ::close(fd);
    throw IoError("stat", path_, err);
  }
  size_ = static_cast<Bytes>(st.st_size);
  if (size_ > 0) {
    void* map = ::mmap(nullptr, size_, PROT_READ, MAP_SHARED, fd, 0);
    if (map == MAP_FAILED) {
      const int err = errno;
      ::close(fd);
      throw IoError("mmap", path_, err);
    }
    data_ = static_cast<const std::byte*>(map);
  }
  ::close(fd);
}

MappedFile::~MappedFile() {
  if (data_ != nullptr) ::munmap(const_cast<std::byte*>(data_), size_);
}

void MappedFile::copy(Bytes offset, void* out, Bytes n) const {
  if (offset > size_ || n > size_ - offset) {
    throw InternalError("MappedFile::copy of [" + std::to_string(offset) + ", +" +
                        std::to_string(n) + ") beyond the " + std::to_string(size_) +
                        " bytes mapped of " + path_);
  }
  if (n == 0 || CopyOut(data_ + offset, out, static_cast<std::size_t>(n))) return;
  // SIGBUS was blocked while its handler ran if something left it so; unblock it for the next.
  sigset_t bus;
  sigemptyset(&bus);
  sigaddset(&bus, SIGBUS);
  ::pthread_sigmask(SIG_UNBLOCK, &bus, nullptr);
  struct stat st {};
  const std::string now = ::stat(path_.c_str(), &st) == 0
                              ? std::to_string(st.st_size) + " bytes now"
                              : "gone now: " + std::string(std::strerror(errno));
  throw IoError("read", path_, 0,
                "the file was truncated while mapped: [" + std::to_string(offset) + ", +" +
                    std::to_string(n) + ") lies beyond its end (" + std::to_string(size_) +
                    " bytes when mapped, " + now + ")");
}

Bytes MappedReadableFile::read_at(Bytes offset, void* buffer, Bytes length) {
  if (offset >= file_.size()) return 0;
  const Bytes n = std::min(length, file_.size() - offset);
  file_.copy(offset, buffer, n);
  return n;
}

void MappedReadableFile::drop_cache() {
  const int fd = ::open(file_.path().c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
  ::close(fd);
}

}  // namespace dlbench::storage
