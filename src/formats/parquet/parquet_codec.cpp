#include "formats/parquet/parquet_codec.h"

#include <snappy-c.h>
#include <zlib.h>
#include <zstd.h>

#include <cstring>
#include <string>

#include "formats/parquet/parquet_metadata.h"
#include "formats/parquet/thrift_compact.h"
#include "util/error.h"

namespace dlbench::formats::parquet {
namespace {

[[noreturn]] void CodecError(std::int32_t codec, const std::string& why) {
  throw thrift::DecodeError(std::string("corrupt ") + CodecName(codec) + " page: " + why);
}

void Gunzip(std::span<const std::byte> in, std::span<std::byte> out) {
  z_stream z{};
  if (inflateInit2(&z, 15 + 32) != Z_OK) throw InternalError("inflateInit2");
  z.next_in = reinterpret_cast<Bytef*>(const_cast<std::byte*>(in.data()));
  z.avail_in = static_cast<uInt>(in.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  const int rc = inflate(&z, Z_FINISH);
  const std::size_t produced = z.total_out;
  const bool all_input = z.avail_in == 0;
  inflateEnd(&z);
  if (rc != Z_STREAM_END || produced != out.size() || !all_input) {
    CodecError(kGzip, "zlib status " + std::to_string(rc) + ", " + std::to_string(produced) +
                          " of " + std::to_string(out.size()) + " bytes");
  }
}

void Unsnappy(std::span<const std::byte> in, std::span<std::byte> out) {
  const auto* src = reinterpret_cast<const char*>(in.data());
  std::size_t length = 0;
  if (snappy_uncompressed_length(src, in.size(), &length) != SNAPPY_OK || length != out.size()) {
    CodecError(kSnappy, "it announces " + std::to_string(length) + " bytes, the header " +
                            std::to_string(out.size()));
  }
  std::size_t produced = out.size();
  if (snappy_uncompress(src, in.size(), reinterpret_cast<char*>(out.data()), &produced) !=
          SNAPPY_OK ||
      produced != out.size()) {
    CodecError(kSnappy, "it does not decompress to " + std::to_string(out.size()) + " bytes");
  }
}

// A decompression context per thread: ZSTD_decompress would allocate one (about 100 KiB) per page.
ZSTD_DCtx* ThreadZstdContext() {
  struct Holder {
    ZSTD_DCtx* context = ZSTD_createDCtx();
    ~Holder() { ZSTD_freeDCtx(context); }
  };
  thread_local Holder holder;
  if (holder.context == nullptr) throw InternalError("ZSTD_createDCtx failed");
  return holder.context;
}

void Unzstd(std::span<const std::byte> in, std::span<std::byte> out) {
  const std::size_t produced =
      ZSTD_decompressDCtx(ThreadZstdContext(), out.data(), out.size(), in.data(), in.size());
  if (ZSTD_isError(produced)) CodecError(kZstd, ZSTD_getErrorName(produced));
  if (produced != out.size()) {
    CodecError(kZstd, std::to_string(produced) + " of " + std::to_string(out.size()) + " bytes");
  }
}

std::size_t CompressGzip(int level, std::span<const std::byte> in, std::vector<std::byte>& out) {
  z_stream z{};
  // windowBits 15 + 16: a gzip header and trailer around the deflate stream, as pyarrow writes.
  if (deflateInit2(&z, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    throw InternalError("parquet: zlib refused compression_level " + std::to_string(level));
  }
  out.resize(deflateBound(&z, static_cast<uLong>(in.size())));
  z.next_in = reinterpret_cast<Bytef*>(const_cast<std::byte*>(in.data()));
  z.avail_in = static_cast<uInt>(in.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  const int rc = deflate(&z, Z_FINISH);
  const std::size_t length = z.total_out;
  deflateEnd(&z);
  if (rc != Z_STREAM_END) throw InternalError("parquet: deflate failed");
  return length;
}

std::size_t CompressSnappy(std::span<const std::byte> in, std::vector<std::byte>& out) {
  out.resize(snappy_max_compressed_length(in.size()));
  std::size_t length = out.size();
  if (snappy_compress(reinterpret_cast<const char*>(in.data()), in.size(),
                      reinterpret_cast<char*>(out.data()), &length) != SNAPPY_OK) {
    throw InternalError("parquet: snappy_compress failed");
  }
  return length;
}

// A compression context per thread, as ThreadZstdContext for decompression.
ZSTD_CCtx* ThreadZstdCompressContext() {
  struct Holder {
    ZSTD_CCtx* context = ZSTD_createCCtx();
    ~Holder() { ZSTD_freeCCtx(context); }
  };
  thread_local Holder holder;
  if (holder.context == nullptr) throw InternalError("ZSTD_createCCtx failed");
  return holder.context;
}

std::size_t CompressZstd(int level, std::span<const std::byte> in, std::vector<std::byte>& out) {
  out.resize(ZSTD_compressBound(in.size()));
  const std::size_t length = ZSTD_compressCCtx(ThreadZstdCompressContext(), out.data(), out.size(),
                                               in.data(), in.size(), level);
  if (ZSTD_isError(length)) {
    throw InternalError(std::string("parquet: ZSTD_compressCCtx: ") + ZSTD_getErrorName(length));
  }
  return length;
}

}  // namespace

const char* CodecName(std::int32_t codec) {
  switch (codec) {
    case kUncompressed:
      return "UNCOMPRESSED";
    case kSnappy:
      return "SNAPPY";
    case kGzip:
      return "GZIP";
    case kLzo:
      return "LZO";
    case kBrotli:
      return "BROTLI";
    case kLz4:
      return "LZ4";
    case kZstd:
      return "ZSTD";
    case kLz4Raw:
      return "LZ4_RAW";
    default:
      return "unknown";
  }
}

bool CodecSupported(std::int32_t codec) {
  return codec == kUncompressed || codec == kSnappy || codec == kGzip || codec == kZstd;
}

void Decompress(std::int32_t codec, std::span<const std::byte> in, std::span<std::byte> out) {
  switch (codec) {
    case kUncompressed:
      if (in.size() != out.size()) {
        CodecError(codec, std::to_string(in.size()) + " bytes stored, " +
                              std::to_string(out.size()) + " announced");
      }
      if (!in.empty()) std::memcpy(out.data(), in.data(), in.size());
      return;
    case kSnappy:
      Unsnappy(in, out);
      return;
    case kGzip:
      Gunzip(in, out);
      return;
    case kZstd:
      Unzstd(in, out);
      return;
    default:
      throw thrift::DecodeError(std::string("codec ") + std::to_string(codec) + " (" +
                                CodecName(codec) +
                                ") is not read by dlbench (UNCOMPRESSED, SNAPPY, GZIP, ZSTD)");
  }
}

std::size_t Compress(std::int32_t codec, int level, std::span<const std::byte> in,
                     std::vector<std::byte>& out) {
  switch (codec) {
    case kSnappy:
      return CompressSnappy(in, out);
    case kGzip:
      return CompressGzip(level, in, out);
    case kZstd:
      return CompressZstd(level, in, out);
    default:
      throw InternalError(std::string("parquet: dlbench does not compress ") + CodecName(codec) +
                          " pages");
  }
}

}  // namespace dlbench::formats::parquet
