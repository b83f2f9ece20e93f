// A data file mapped read-only into memory (reader format mmap_indexed_binary), and the one safe
// way to copy bytes out of the mapping.
//
// A mapping does not shrink with its file: when another process truncates the file while it is
// mapped (a dataset rewritten or cut during training), touching a page past the new end raises
// SIGBUS, which kills the process. copy() turns that into an Error(kIo) naming the file, the
// range and the file's size now (exit 3, or a skipped sample with reader.on_error: skip).
//
// How, and why not by checking the size first: an fstat before each copy (or every N copies)
// still races with a truncation between the check and the copy — with several reader threads,
// and another process, the window is real — so it narrows the crash instead of removing it. copy()
// instead marks the range it is copying in a thread_local guard and sigsetjmp()s; a process-wide
// SIGBUS handler (installed once, on the first MappedFile) siglongjmp()s back to that copy when the
// faulting address lies inside the guarded range of the faulting thread. SIGBUS from a memory
// access is delivered to the thread that faulted, so each reader thread catches only its own
// faults and the threads need no lock. A SIGBUS outside any guarded range (a bug, a signal sent by
// kill) goes to the handler that was installed before ours, or ends the process as it would have.
// The copy on the hot path costs a sigsetjmp without saving the signal mask (no system call): the
// handler runs with SA_NODEFER, and the error path unblocks SIGBUS in case it was blocked.
//
// Nothing may be constructed between the sigsetjmp and the copy (a longjmp skips destructors):
// the guarded copy is a plain memcpy. A MappedFile may be read by several threads at once; the
// mapping lives until the MappedFile is destroyed.
//
// PosixEnv::open_mapped returns a MappedReadableFile: the mapping as a ReadableFile whose
// read_at is one guarded copy, so that every access goes through the Env's wrappers (counted,
// throttled, failed on purpose) like a positional read.
#pragma once

#include <cstddef>
#include <string>
#include <utility>

#include "storage/file.h"
#include "util/units.h"

namespace dlbench::storage {

class MappedFile {
 public:
  // Maps all of the regular file at `path` read-only (an empty file maps nothing); throws
  // IoError for open, stat or mmap failures.
  explicit MappedFile(std::string path);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  const std::string& path() const { return path_; }
  // The file's size when it was mapped.
  Bytes size() const { return size_; }
  // Copies [offset, offset + n) of the file to `out`. Precondition: the range lies within size()
  // (InternalError otherwise). Throws IoError when the file no longer holds the range.
  void copy(Bytes offset, void* out, Bytes n) const;

 private:
  std::string path_;
  Bytes size_ = 0;
  const std::byte* data_ = nullptr;
};

// A MappedFile read through the ReadableFile interface (Env::open_mapped).
class MappedReadableFile final : public ReadableFile {
 public:
  explicit MappedReadableFile(std::string path) : file_(std::move(path)) {}
  const std::string& path() const override { return file_.path(); }
  // The size when mapped.
  Bytes size() const override { return file_.size(); }
  // Copies what the mapping holds of [offset, offset + length): less at the end of the mapping.
  Bytes read_at(Bytes offset, void* buffer, Bytes length) override;
  // posix_fadvise DONTNEED through a descriptor opened for it; best effort.
  void drop_cache() override;

 private:
  MappedFile file_;
};

}  // namespace dlbench::storage
