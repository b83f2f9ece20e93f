#include "storage/posix_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <climits>
#include <string>

#include "storage/aligned_buffer.h"
#include "storage/raw_syscalls.h"
#include "util/error.h"

namespace dlbench::storage {
namespace {

// Linux transfers at most 0x7ffff000 bytes per call; stay well below so a call never returns a
// short count merely because of that limit.
constexpr Bytes kMaxTransfer = 1 * GiB;

std::string DirectAlignmentDetail(Bytes offset, Bytes length) {
  return OffsetDetail(offset, length) + ": O_DIRECT needs offset, length and buffer aligned to " +
         std::to_string(kDirectAlignment) + " bytes";
}

std::atomic<std::uint64_t> interrupted_calls{0};
std::atomic<std::uint64_t> short_transfers{0};
thread_local int interruptions = 0;  // ScopedInterruption's depth on this thread

// True when the system call about to be made is to fail with EINTR (ScopedInterruption): every
// other call then, so that each interrupted call is retried once uninterrupted.
bool Interrupted() {
  if (interruptions == 0) return false;
  static thread_local bool last_interrupted = false;
  last_interrupted = !last_interrupted;
  if (last_interrupted) errno = EINTR;
  return last_interrupted;
}

void CountInterruption() { interrupted_calls.fetch_add(1, std::memory_order_relaxed); }

// What a write call's result `n` means for the loop around it, `left` bytes of the file's write
// at `at` still to go: false to call again (EINTR, counted); true when it wrote something.
// Throws for an error, and for a call that wrote nothing (never expected for a regular file: do
// not spin).
bool WriteProgressed(ssize_t n, const std::string& path, Bytes at, Bytes left) {
  if (n < 0) {
    if (errno == EINTR) {
      CountInterruption();
      return false;
    }
    throw IoError("write", path, errno, OffsetDetail(at, left));
  }
  if (n == 0)
    throw IoError("write", path, 0, OffsetDetail(at, left) + ": the write made no progress");
  return true;
}

void WriteFully(int fd, const std::string& path, Bytes offset, const std::byte* data,
                Bytes length) {
  Bytes done = 0;
  while (done < length) {
    const Bytes chunk = std::min(length - done, kMaxTransfer);
    const ssize_t n = Interrupted() ? -1
                                    : ::pwrite(fd, data + done, static_cast<std::size_t>(chunk),
                                               static_cast<off_t>(offset + done));
    if (!WriteProgressed(n, path, offset + done, length - done)) continue;
    done += static_cast<Bytes>(n);
    if (done < length) short_transfers.fetch_add(1, std::memory_order_relaxed);
  }
}

// Writes `pieces` at `offset` with pwritev, IOV_MAX pieces (and kMaxTransfer bytes) per call,
// resuming a short write inside the piece it stopped in.
void WriteGathered(int fd, const std::string& path, Bytes offset,
                   std::span<const std::span<const std::byte>> pieces) {
  const Bytes total = GatheredBytes(pieces);
  std::array<iovec, IOV_MAX> iov;  // not zeroed: filled before each call
  std::size_t next = 0;            // the first piece not wholly written
  Bytes skip = 0;                  // bytes of pieces[next] written already
  Bytes done = 0;
  while (done < total) {
    std::size_t count = 0;
    Bytes chunk = 0;
    for (std::size_t i = next; i < pieces.size() && count < iov.size() && chunk < kMaxTransfer;
         ++i) {
      const Bytes from = i == next ? skip : 0;
      const Bytes length = std::min(pieces[i].size() - from, kMaxTransfer - chunk);
      if (length == 0) continue;
      // pwritev does not write through iov_base.
      iov[count++] = {const_cast<std::byte*>(pieces[i].data() + from),  // NOLINT
                      static_cast<std::size_t>(length)};
      chunk += length;
    }
    const ssize_t n = Interrupted() ? -1
                                    : ::pwritev(fd, iov.data(), static_cast<int>(count),
                                                static_cast<off_t>(offset + done));
    if (!WriteProgressed(n, path, offset + done, total - done)) continue;
    done += static_cast<Bytes>(n);
    if (static_cast<Bytes>(n) < chunk) short_transfers.fetch_add(1, std::memory_order_relaxed);
    Bytes left = skip + static_cast<Bytes>(n);
    while (next < pieces.size() && left >= pieces[next].size()) left -= pieces[next++].size();
    skip = left;
  }
}

}  // namespace

IoRetries PosixRetries() {
  return {interrupted_calls.load(std::memory_order_relaxed),
          short_transfers.load(std::memory_order_relaxed)};
}

ScopedInterruption::ScopedInterruption() { ++interruptions; }
ScopedInterruption::~ScopedInterruption() { --interruptions; }

std::string OffsetDetail(Bytes offset, Bytes length) {
  return "offset " + std::to_string(offset) + ", length " + std::to_string(length);
}

void RequireRegularFile(unsigned mode, const std::string& op, const std::string& path) {
  if (S_ISDIR(mode)) throw IoError(op, path, EISDIR);
  if (!S_ISREG(mode)) throw IoError(op, path, 0, "not a regular file");
}

PosixReadableFile::PosixReadableFile(const std::string& path, int fd, bool direct)
    : path_(SpareString::Take()), fd_(fd), direct_(direct) {
  path_ = path;  // into the spare's buffer: no allocation per file
}

Bytes PosixReadableFile::size() const {
  Bytes size = size_.load(std::memory_order_relaxed);
  if (size == kUnknown) {
    struct stat st {};
    if (::fstat(fd_, &st) != 0) throw IoError("stat", path_, errno);
    RequireRegularFile(st.st_mode, "read", path_);
    size = static_cast<Bytes>(st.st_size);
    size_.store(size, std::memory_order_relaxed);
  }
  return size;
}

PosixReadableFile::~PosixReadableFile() {
  RawClose(fd_);
  SpareString::Keep(std::move(path_));
}

Bytes PosixReadableFile::read_at(Bytes offset, void* buffer, Bytes length) {
  if (direct_ && !(IsAligned(offset) && IsAligned(length) && IsAligned(buffer))) {
    throw IoError("read", path_, EINVAL, DirectAlignmentDetail(offset, length));
  }
  auto* data = static_cast<std::byte*>(buffer);
  Bytes done = 0;
  bool continuing = false;  // the previous call transferred less than asked
  while (done < length) {
    const Bytes chunk = std::min(length - done, kMaxTransfer);
    const ssize_t n = Interrupted() ? -1
                                    : RawPread(fd_, data + done, static_cast<std::size_t>(chunk),
                                               static_cast<off_t>(offset + done));
    if (n < 0) {
      if (errno == EINTR) {
        CountInterruption();
        continue;
      }
      // pread on a FIFO or socket standing where a file should be.
      if (errno == ESPIPE) throw IoError("read", path_, 0, "not a regular file");
      throw IoError("read", path_, errno, OffsetDetail(offset + done, length - done));
    }
    if (n == 0) break;  // end of file
    // A short read continued is a retry only if it was not the end of the file.
    if (continuing) short_transfers.fetch_add(1, std::memory_order_relaxed);
    done += static_cast<Bytes>(n);
    continuing = static_cast<Bytes>(n) < chunk;
  }
  return done;
}

void PosixReadableFile::drop_cache() { ::posix_fadvise(fd_, 0, 0, POSIX_FADV_DONTNEED); }

PosixWritableFile::PosixWritableFile(std::string path, int fd, int direct_fd, Pending pending,
                                     std::string final_path)
    : path_(std::move(path)),
      fd_(fd),
      direct_fd_(direct_fd),
      pending_(pending),
      final_path_(std::move(final_path)) {}

PosixWritableFile::~PosixWritableFile() {
  if (pending_ == Pending::kUnnamed || pending_ == Pending::kPartial) discard();
  close_descriptors();
}

void PosixWritableFile::write_at(Bytes offset, const void* buffer, Bytes length) {
  if (fd_ < 0) throw IoError("write", path_, EBADF, OffsetDetail(offset, length) + ": file closed");
  const auto* data = static_cast<const std::byte*>(buffer);
  if (direct_fd_ < 0) {
    WriteFully(fd_, path_, offset, data, length);
    return;
  }
  if (!IsAligned(offset) || !IsAligned(buffer)) {
    throw IoError("write", path_, EINVAL, DirectAlignmentDetail(offset, length));
  }
  const Bytes aligned = AlignDown(length);
  WriteFully(direct_fd_, path_, offset, data, aligned);
  if (aligned < length) WriteFully(fd_, path_, offset + aligned, data + aligned, length - aligned);
}

void PosixWritableFile::append(const void* buffer, Bytes length) {
  write_at(appended_, buffer, length);
  appended_ += length;
}

void PosixWritableFile::append_gathered(std::span<const std::span<const std::byte>> pieces) {
  if (direct_fd_ >= 0) {
    WritableFile::append_gathered(pieces);
    return;
  }
  const Bytes length = GatheredBytes(pieces);
  if (fd_ < 0) {
    throw IoError("write", path_, EBADF, OffsetDetail(appended_, length) + ": file closed");
  }
  WriteGathered(fd_, path_, appended_, pieces);
  appended_ += length;
}

void PosixWritableFile::truncate(Bytes size) {
  if (fd_ < 0) throw IoError("truncate", path_, EBADF, "file closed");
  while (::ftruncate(fd_, static_cast<off_t>(size)) != 0) {
    if (errno != EINTR) throw IoError("truncate", path_, errno, "to " + std::to_string(size));
  }
}

void PosixWritableFile::sync() {
  if (fd_ < 0) throw IoError("fsync", path_, EBADF, "file closed");
  // fsync flushes the inode, so it covers what went through either descriptor.
  while (::fsync(fd_) != 0) {
    if (errno != EINTR) throw IoError("fsync", path_, errno);
  }
}

int PosixWritableFile::close_descriptors() {
  int error = 0;
  // close is not retried on EINTR: on Linux the descriptor is released regardless.
  if (direct_fd_ >= 0 && ::close(direct_fd_) != 0) error = errno;
  direct_fd_ = -1;
  if (fd_ >= 0 && ::close(fd_) != 0 && error == 0) error = errno;
  fd_ = -1;
  return error;
}

void PosixWritableFile::close() {
  if (pending_ == Pending::kUnnamed || pending_ == Pending::kPartial) {
    abandon();
    return;
  }
  const int error = close_descriptors();
  if (error != 0) throw IoError("close", path_, error);
}

void PosixWritableFile::publish() {
  if (pending_ == Pending::kNo) {
    throw IoError("publish", path_, EINVAL, "the file was not created for publishing");
  }
  if (pending_ == Pending::kDone || fd_ < 0) {
    throw IoError("publish", path_, EBADF, "file closed");
  }
  if (pending_ == Pending::kUnnamed) {
    // Through /proc (linkat with AT_EMPTY_PATH would need CAP_DAC_READ_SEARCH): the documented
    // way to name an O_TMPFILE file. linkat does not replace: a file of that name (an incomplete
    // one a rerun redoes, or a symbolic link) is removed first, as rename would replace it.
    const std::string self = "/proc/self/fd/" + std::to_string(fd_);
    const auto link = [&] {
      int result;
      do {
        result = ::linkat(AT_FDCWD, self.c_str(), AT_FDCWD, path_.c_str(), AT_SYMLINK_FOLLOW);
      } while (result != 0 && errno == EINTR);
      return result == 0;
    };
    if (!link() && !(errno == EEXIST && ::unlink(path_.c_str()) == 0 && link())) {
      const int error = errno;
      discard();
      throw IoError("link", path_, error);
    }
    pending_ = Pending::kDone;
    const int error = close_descriptors();
    if (error != 0) throw IoError("close", path_, error);
    return;
  }
  const int error = close_descriptors();
  if (error != 0) {
    discard();
    throw IoError("close", path_, error);
  }
  if (::rename(path_.c_str(), final_path_.c_str()) != 0) {
    const int rename_error = errno;
    discard();
    throw IoError("rename", path_, rename_error, "to " + final_path_);
  }
  pending_ = Pending::kDone;
}

void PosixWritableFile::abandon() {
  if (pending_ == Pending::kNo) {
    throw IoError("abandon", path_, EINVAL, "the file was not created for publishing");
  }
  if (pending_ == Pending::kDone) return;
  const bool named = pending_ == Pending::kPartial;
  pending_ = Pending::kDone;
  close_descriptors();  // the file is being discarded: its close error does not matter
  if (named && ::unlink(path_.c_str()) != 0 && errno != ENOENT) {
    throw IoError("remove", path_, errno);
  }
}

void PosixWritableFile::discard() noexcept {
  try {
    abandon();
  } catch (...) {  // the partial name keeps it detectable (FindPartialFiles)
  }
}

}  // namespace dlbench::storage
