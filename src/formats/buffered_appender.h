// Sequential writing through one fixed caller-provided buffer, so writers stream files of any
// size in large appends without allocating.
#pragma once

#include <cstddef>
#include <span>

#include "formats/format.h"
#include "storage/file.h"
#include "util/units.h"

namespace dlbench::formats {

class BufferedAppender {
 public:
  // `buffer` must outlive the appender and be non-empty.
  BufferedAppender(storage::WritableFile& file, std::span<std::byte> buffer);
  BufferedAppender(const BufferedAppender&) = delete;
  BufferedAppender& operator=(const BufferedAppender&) = delete;

  void append(const void* data, std::size_t length);
  // Space to fill in place (flushing first when the buffer is full); then commit what was filled.
  std::span<std::byte> free_space();
  void commit(std::size_t length) { used_ += length; }
  void flush();
  // Bytes appended so far, buffered ones included.
  Bytes position() const { return file_.appended() + used_; }

 private:
  storage::WritableFile& file_;
  std::span<std::byte> buffer_;
  std::size_t used_ = 0;
};

// How a writer ends a data file without companions: fsync it when spec.fsync, close it, and
// return its WriteResult (the file's size as data_bytes, spec.path as the one file).
WriteResult FinishDataFile(storage::WritableFile& file, const FileSpec& spec);

}  // namespace dlbench::formats
