// Sequential writing through one fixed caller-provided buffer, so writers stream files of any
// size in large appends without allocating. ByteSink is where a format streams its bytes;
// BufferedAppender flushes them to a file, the shared-file writer (sliced_shared_writer.cpp) in
// collective writes of a shared file.
#pragma once

#include <cstddef>
#include <span>

#include "formats/format.h"
#include "storage/file.h"
#include "util/units.h"

namespace dlbench::formats {

class ByteSink {
 public:
  // `buffer` must outlive the sink and be non-empty.
  explicit ByteSink(std::span<std::byte> buffer);
  ByteSink(const ByteSink&) = delete;
  ByteSink& operator=(const ByteSink&) = delete;

  void append(const void* data, std::size_t length);
  // Space to fill in place (flushing first when the buffer is full); then commit what was filled.
  std::span<std::byte> free_space();
  void commit(std::size_t length) { used_ += length; }
  // Hands what is buffered to write_out (nothing when the buffer is empty).
  void flush();

 protected:
  ~ByteSink() = default;
  std::size_t buffered() const { return used_; }
  std::span<std::byte> buffer() const { return buffer_; }

 private:
  virtual void write_out(std::span<const std::byte> bytes) = 0;

  std::span<std::byte> buffer_;
  std::size_t used_ = 0;
};

class BufferedAppender final : public ByteSink {
 public:
  // `buffer` must outlive the appender and be non-empty.
  BufferedAppender(storage::WritableFile& file, std::span<std::byte> buffer)
      : ByteSink(buffer), file_(file) {}

  // Bytes appended so far, buffered ones included.
  Bytes position() const { return file_.appended() + buffered(); }

 private:
  void write_out(std::span<const std::byte> bytes) override {
    file_.append(bytes.data(), bytes.size());
  }

  storage::WritableFile& file_;
};

// How a writer ends a data file without companions: fsync it when spec.fsync, close it, and
// return its WriteResult (the file's size as data_bytes, spec.path as the one file).
WriteResult FinishDataFile(storage::WritableFile& file, const FileSpec& spec);

}  // namespace dlbench::formats
