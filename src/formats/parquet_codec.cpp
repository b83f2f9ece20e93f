#include "formats/parquet_codec.h"

#include <snappy-c.h>
#include <zlib.h>
#include <zstd.h>

#include <cstring>
#include <string>

#include "formats/parquet_metadata.h"
#include "formats/thrift_compact.h"
#include "util/error.h"

namespace dlbench::formats::parquet {
namespace {

[[noreturn]] void CodecError(std::int32_t codec, const std::string& why) {
  throw thrift::DecodeError(std::string("corrupt ") + CodecName(codec) + " page: " + why);
}

void Gunzip(std::span<const std::byte> in, std::span<std::byte> out) {
  z_stream z{};
  if (inflateInit2(&z, 15 + 32) != Z_OK) throw Error(ExitCode::kInternal, "inflateInit2");
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
  if (holder.context == nullptr) throw Error(ExitCode::kInternal, "ZSTD_createDCtx failed");
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

}  // namespace dlbench::formats::parquet
