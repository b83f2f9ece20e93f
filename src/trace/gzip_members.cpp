#include "trace/gzip_members.h"

#include <libdeflate.h>
#include <zlib.h>

#include "util/error.h"

namespace dlbench::trace {

void GzipCompressor::FreeCompressor::operator()(libdeflate_compressor* c) const {
  libdeflate_free_compressor(c);
}

GzipCompressor::GzipCompressor(int level) {
  if (level < 1 || level > 9) {
    throw UsageError("gzip compression level must be 1..9, got " + std::to_string(level));
  }
  compressor_.reset(libdeflate_alloc_compressor(level));
  if (!compressor_) throw InternalError("libdeflate: no memory for a compressor");
}

GzipCompressor::~GzipCompressor() = default;

std::string_view GzipCompressor::member(std::string_view text) {
  out_.resize(libdeflate_gzip_compress_bound(compressor_.get(), text.size()));
  const std::size_t n = libdeflate_gzip_compress(compressor_.get(), text.data(), text.size(),
                                                 out_.data(), out_.size());
  if (n == 0) throw InternalError("libdeflate: a gzip member did not fit its bound");
  return {reinterpret_cast<const char*>(out_.data()), n};
}

GzipMembers::GzipMembers(const std::string& path, bool compress, int level) {
  if (level < 1 || level > 9) {
    throw UsageError("trace compression level must be 1..9, got " + std::to_string(level));
  }
  if (compress) compressor_ = std::make_unique<GzipCompressor>(level);
  file_ = storage::PosixEnv().create(path);
}

GzipMembers::~GzipMembers() = default;

void GzipMembers::write(std::string_view text) {
  if (!file_) throw InternalError("trace file written after close");
  const std::string_view bytes = compressor_ ? compressor_->member(text) : text;
  file_->append(bytes.data(), bytes.size());
  bytes_ += bytes.size();
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
    if (inflateInit2(&z, 15 + 16) != Z_OK) throw InternalError("zlib: inflateInit2");
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
