#include "trace_summary/line_reader.h"

#include <cstring>

#include "util/error.h"

namespace dlbench::trace_summary {
namespace {

constexpr std::size_t kInputChunk = 1 << 20;
constexpr std::size_t kTextBuffer = 4 << 20;  // also the longest line accepted

}  // namespace

LineReader::LineReader(storage::Env& env, const std::string& path)
    : path_(path), file_(env.open_read(path)), input_(kInputChunk), text_(kTextBuffer) {
  unsigned char magic[2] = {0, 0};
  gzip_ = file_->read_at(0, magic, 2) == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
  if (gzip_ && inflateInit2(&stream_, 16 + MAX_WBITS) != Z_OK) {
    throw InternalError("zlib could not start inflating " + path_);
  }
}

LineReader::~LineReader() {
  if (gzip_) inflateEnd(&stream_);
}

Bytes LineReader::read_input(char* buffer, Bytes length) {
  const Bytes n = file_->read_at(offset_, buffer, length);
  offset_ += n;
  if (n == 0) input_done_ = true;
  return n;
}

bool LineReader::fill() {
  if (begin_ > 0) {  // keep the unread partial line at the front
    std::memmove(text_.data(), text_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  if (end_ == text_.size()) {
    throw Error(ExitCode::kIo, path_ + ": a line longer than " + std::to_string(kTextBuffer) +
                                   " bytes near byte " + std::to_string(offset_) +
                                   ": not a DFTracer trace");
  }
  if (!gzip_) {
    if (input_done_) return false;
    const Bytes n = read_input(text_.data() + end_, text_.size() - end_);
    end_ += n;
    return n > 0;
  }
  const std::size_t before = end_;
  while (end_ == before) {
    if (stream_.avail_in == 0) {
      const Bytes n = input_done_ ? 0 : read_input(input_.data(), input_.size());
      if (n == 0) {
        if (member_open_) cut_ = "the last gzip member is cut";
        return false;
      }
      stream_.next_in = reinterpret_cast<Bytef*>(input_.data());
      stream_.avail_in = static_cast<uInt>(n);
    }
    stream_.next_out = reinterpret_cast<Bytef*>(text_.data() + end_);
    stream_.avail_out = static_cast<uInt>(text_.size() - end_);
    member_open_ = true;
    const int status = inflate(&stream_, Z_NO_FLUSH);
    end_ = text_.size() - stream_.avail_out;
    if (status == Z_STREAM_END) {
      member_open_ = false;
      inflateReset(&stream_);  // the next member, if any, is independent
    } else if (status != Z_OK && status != Z_BUF_ERROR) {
      throw Error(ExitCode::kIo, path_ + ": not valid gzip data near byte " +
                                     std::to_string(offset_ - stream_.avail_in) + " (" +
                                     (stream_.msg ? stream_.msg : "zlib error") + ")");
    }
  }
  return true;
}

bool LineReader::next(std::string_view& line) {
  for (;;) {
    const char* start = text_.data() + begin_;
    const void* newline = std::memchr(start, '\n', end_ - begin_);
    if (newline != nullptr) {
      const auto length = static_cast<std::size_t>(static_cast<const char*>(newline) - start);
      line = std::string_view(start, length);
      begin_ += length + 1;
      return true;
    }
    if (!fill()) {
      if (end_ > begin_ && cut_.empty()) cut_ = "the last line is cut";
      begin_ = end_;
      return false;
    }
  }
}

bool LineReader::next_bytes(std::string_view& bytes) {
  begin_ = end_;
  if (!fill()) return false;
  bytes = std::string_view(text_.data() + begin_, end_ - begin_);
  begin_ = end_;
  return true;
}

}  // namespace dlbench::trace_summary
