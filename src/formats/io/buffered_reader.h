// Sequential reading of one file through a fixed buffer of `transfer_size` bytes (TensorFlow's
// read-buffer model), with large copies going straight into the destination. Counts every byte
// it fetches from storage, so readers can report true bytes.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "storage/file.h"
#include "util/units.h"

namespace dlbench::formats {

class BufferedReader {
 public:
  BufferedReader(storage::ReadableFile& file, Bytes buffer_size);

  Bytes position() const { return position_; }
  Bytes capacity() const { return buffer_.size(); }
  // Moves to `offset`, keeping buffered bytes that cover it.
  void seek(Bytes offset);
  // At least min(n, capacity) bytes at the position unless the file ends first; may return more.
  std::span<const std::byte> peek(std::size_t n);
  // Consumes bytes returned by peek.
  void advance(std::size_t n) { position_ += n; }
  // Copies up to n bytes into dst; returns fewer only at end of file.
  Bytes read(std::byte* dst, Bytes n);
  // Moves past n bytes without fetching those that are not buffered.
  void skip(Bytes n) { position_ += n; }
  // Bytes fetched from storage so far.
  Bytes bytes_read() const { return bytes_read_; }

 private:
  Bytes buffered_end() const { return start_ + length_; }

  storage::ReadableFile& file_;
  std::vector<std::byte> buffer_;
  Bytes start_ = 0;         // file offset of buffer_[0]
  std::size_t length_ = 0;  // valid bytes in buffer_
  Bytes position_ = 0;
  Bytes bytes_read_ = 0;
};

}  // namespace dlbench::formats
