#include "formats/io/buffered_reader.h"

#include <algorithm>
#include <cstring>

namespace dlbench::formats {

BufferedReader::BufferedReader(storage::ReadableFile& file, Bytes buffer_size)
    : file_(file), buffer_(std::max<Bytes>(buffer_size, 4 * KiB)) {}

void BufferedReader::seek(Bytes offset) { position_ = offset; }

std::span<const std::byte> BufferedReader::peek(std::size_t n) {
  n = std::min(n, buffer_.size());
  if (position_ >= start_ && position_ + n <= buffered_end()) {
    return {buffer_.data() + (position_ - start_), length_ - (position_ - start_)};
  }
  // Keep the still-unconsumed buffered bytes, then fill the rest of the buffer.
  std::size_t kept = 0;
  if (position_ >= start_ && position_ < buffered_end()) {
    kept = static_cast<std::size_t>(buffered_end() - position_);
    std::memmove(buffer_.data(), buffer_.data() + (position_ - start_), kept);
  }
  start_ = position_;
  const Bytes got = file_.read_at(start_ + kept, buffer_.data() + kept, buffer_.size() - kept);
  bytes_read_ += got;
  length_ = kept + got;
  return {buffer_.data(), length_};
}

Bytes BufferedReader::read(std::byte* dst, Bytes n) {
  Bytes done = 0;
  if (position_ >= start_ && position_ < buffered_end()) {
    done = std::min<Bytes>(n, buffered_end() - position_);
    std::memcpy(dst, buffer_.data() + (position_ - start_), done);
    position_ += done;
  }
  if (n - done >= buffer_.size()) {
    const Bytes got = file_.read_at(position_, dst + done, n - done);
    bytes_read_ += got;
    position_ += got;
    return done + got;
  }
  while (done < n) {
    const std::span<const std::byte> avail = peek(n - done);
    if (avail.empty()) break;
    const Bytes take = std::min<Bytes>(avail.size(), n - done);
    std::memcpy(dst + done, avail.data(), take);
    advance(take);
    done += take;
  }
  return done;
}

}  // namespace dlbench::formats
