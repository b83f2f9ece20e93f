#include "trace/gzip_members.h"

#include <zlib.h>

#include "util/error.h"

namespace dlbench::trace {

struct GzipMembers::Stream {
  z_stream z{};
};

GzipMembers::GzipMembers(const std::string& path, bool compress, int level) {
  if (level < 1 || level > 9) {
    throw UsageError("trace compression level must be 1..9, got " + std::to_string(level));
  }
  if (compress) {
    stream_ = std::make_unique<Stream>();
    // windowBits 15 + 16: a gzip header and trailer around each member.
    if (deflateInit2(&stream_->z, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
      stream_.reset();
      throw Error(ExitCode::kInternal, "zlib: deflateInit2 failed");
    }
  }
  file_ = storage::PosixEnv().create(path);
}

GzipMembers::~GzipMembers() {
  if (stream_) deflateEnd(&stream_->z);
}

void GzipMembers::write(std::string_view text) {
  if (!file_) throw Error(ExitCode::kInternal, "trace file written after close");
  if (!stream_) {
    file_->append(text.data(), text.size());
    bytes_ += text.size();
    ++members_;
    return;
  }
  z_stream& z = stream_->z;
  if (deflateReset(&z) != Z_OK) throw Error(ExitCode::kInternal, "zlib: deflateReset failed");
  out_.resize(deflateBound(&z, text.size()) + 64);
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  z.avail_in = static_cast<uInt>(text.size());
  z.next_out = out_.data();
  z.avail_out = static_cast<uInt>(out_.size());
  if (deflate(&z, Z_FINISH) != Z_STREAM_END) {
    throw Error(ExitCode::kInternal, "zlib: deflate did not finish a trace member");
  }
  const std::size_t n = out_.size() - z.avail_out;
  file_->append(out_.data(), n);
  bytes_ += n;
  ++members_;
}

void GzipMembers::close() {
  if (!file_) return;
  std::unique_ptr<storage::WritableFile> file = std::move(file_);
  file->close();
}

Inflated InflateMembers(std::string_view data) {
  Inflated result;
  std::size_t at = 0;
  std::vector<char> out(1 << 16);
  while (at < data.size()) {
    z_stream z{};
    if (inflateInit2(&z, 15 + 16) != Z_OK) throw Error(ExitCode::kInternal, "zlib: inflateInit2");
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data() + at));
    z.avail_in = static_cast<uInt>(data.size() - at);
    std::string member;
    int rc = Z_OK;
    while (rc == Z_OK) {
      z.next_out = reinterpret_cast<Bytef*>(out.data());
      z.avail_out = static_cast<uInt>(out.size());
      rc = inflate(&z, Z_NO_FLUSH);
      member.append(out.data(), out.size() - z.avail_out);
      if (rc == Z_BUF_ERROR && z.avail_in == 0) break;  // input ends inside the member
      if (rc == Z_BUF_ERROR) rc = Z_OK;                 // output was full: go on
    }
    const std::size_t used = data.size() - at - z.avail_in;
    inflateEnd(&z);
    if (rc != Z_STREAM_END) {
      result.complete = false;
      return result;
    }
    result.text += member;
    at += used;
  }
  return result;
}

}  // namespace dlbench::trace
