#include "formats/io/buffered_appender.h"

#include <algorithm>
#include <cstring>

#include "util/error.h"

namespace dlbench::formats {

ByteSink::ByteSink(std::span<std::byte> buffer) : buffer_(buffer) {
  if (buffer_.empty()) throw InternalError("ByteSink: empty buffer");
}

void ByteSink::append(const void* data, std::size_t length) {
  const auto* p = static_cast<const std::byte*>(data);
  while (length > 0) {
    const std::span<std::byte> space = free_space();
    const std::size_t n = std::min(space.size(), length);
    std::memcpy(space.data(), p, n);
    commit(n);
    p += n;
    length -= n;
  }
}

std::span<std::byte> ByteSink::free_space() {
  if (used_ == buffer_.size()) flush();
  return buffer_.subspan(used_);
}

void ByteSink::flush() {
  if (used_ == 0) return;
  write_out(buffer_.first(used_));
  used_ = 0;
}

WriteResult FinishDataFile(storage::WritableFile& file, const FileSpec& spec) {
  WriteResult result;
  result.data_bytes = file.appended();
  if (spec.fsync) file.sync();
  file.close();
  result.files.push_back(spec.path);
  return result;
}

}  // namespace dlbench::formats
