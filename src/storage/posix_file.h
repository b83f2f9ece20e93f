// POSIX implementations of ReadableFile and WritableFile (used by PosixEnv). Every system call
// is retried on EINTR and looped over short transfers; every failure names the path, the
// operation, the offset and errno.
#pragma once

#include <atomic>
#include <string>

#include "storage/file.h"
#include "storage/recycled.h"

namespace dlbench::storage {

// Recycled: with on_demand reads one is opened and closed per sample.
class PosixReadableFile final : public ReadableFile, public Recycled<PosixReadableFile> {
 public:
  // Takes ownership of `fd`. The size is asked of the file system (fstat) the first time size()
  // is called, not at open: a reader that never needs it (one that reads a small file to its
  // end) saves that system call per file.
  // The path is copied into a buffer recycled per thread (SpareString).
  PosixReadableFile(const std::string& path, int fd, bool direct);
  ~PosixReadableFile() override;
  PosixReadableFile(const PosixReadableFile&) = delete;
  PosixReadableFile& operator=(const PosixReadableFile&) = delete;

  const std::string& path() const override { return path_; }
  // Throws Error(kIo) if fstat fails.
  Bytes size() const override;
  // With O_DIRECT, offset, length and buffer must be multiples of kDirectAlignment.
  Bytes read_at(Bytes offset, void* buffer, Bytes length) override;
  void drop_cache() override;

 private:
  std::string path_;
  int fd_;
  static constexpr Bytes kUnknown = ~Bytes{0};
  mutable std::atomic<Bytes> size_{kUnknown};  // concurrent first calls store the same value
  bool direct_;
};

class PosixWritableFile final : public WritableFile {
 public:
  // How a file created for publishing waits for its name (Env::create_for_publish).
  enum class Pending {
    kNo,       // an ordinary file: publish() and abandon() refuse
    kUnnamed,  // an O_TMPFILE file, linked to its final name by publish()
    kPartial,  // written under its partial name, renamed to the final one by publish()
    kDone,     // published or abandoned
  };
  // Takes ownership of both descriptors. `direct_fd` is -1 unless opened with O_DIRECT; then
  // aligned parts of writes go through it and unaligned tails (a file's last partial block)
  // through the buffered `fd`. `final_path`: where publish() renames a kPartial file (a kUnnamed
  // one is linked at `path`).
  PosixWritableFile(std::string path, int fd, int direct_fd, Pending pending = Pending::kNo,
                    std::string final_path = {});
  ~PosixWritableFile() override;
  PosixWritableFile(const PosixWritableFile&) = delete;
  PosixWritableFile& operator=(const PosixWritableFile&) = delete;

  const std::string& path() const override { return path_; }
  // With O_DIRECT, offset and buffer must be aligned; the length may end unaligned.
  void write_at(Bytes offset, const void* buffer, Bytes length) override;
  void append(const void* buffer, Bytes length) override;
  // pwritev; with O_DIRECT, WritableFile's piece-by-piece appends.
  void append_gathered(std::span<const std::span<const std::byte>> pieces) override;
  Bytes appended() const override { return appended_; }
  void truncate(Bytes size) override;
  void sync() override;
  void close() override;
  // kUnnamed: linkat through /proc/self/fd (a file already under the final name is removed
  // first), then close; a failed close then leaves the file published. kPartial: close, then
  // rename; a failure removes the partial name.
  void publish() override;
  void abandon() override;

 private:
  // Closes both descriptors; the first error's errno, or 0.
  int close_descriptors();
  // abandon() without the check that the file is pending; errors swallowed.
  void discard() noexcept;

  std::string path_;
  int fd_;
  int direct_fd_;
  Bytes appended_ = 0;
  Pending pending_;
  std::string final_path_;
};

// "offset N, length M": the detail every I/O error carries.
std::string OffsetDetail(Bytes offset, Bytes length);

// The one rule on what stands where a file should be: a folder (EISDIR), FIFO, socket or device
// ("not a regular file") has no size to read up to or to compare, so `op` on `path` is an I/O
// error (exit 3) naming it. `mode` is stat's st_mode.
void RequireRegularFile(unsigned mode, const std::string& op, const std::string& path);

// Makes this thread's read and write system calls fail with EINTR, before transferring anything,
// until the scope ends (or while one is being retried: each interrupted call is retried once
// uninterrupted), as a signal would: FaultInjectionEnv's kInterrupt faults, to prove the retries
// and their count (PosixRetries).
class ScopedInterruption {
 public:
  ScopedInterruption();
  ~ScopedInterruption();
  ScopedInterruption(const ScopedInterruption&) = delete;
  ScopedInterruption& operator=(const ScopedInterruption&) = delete;
};

// The POSIX Env itself, never wrapped in DLBENCH_FAULTS's faults (PosixEnv() is, when they are
// armed: storage/fault_environment.h).
Env& BarePosixEnv();

}  // namespace dlbench::storage
