// The page codecs dlbench's Parquet reader decompresses: UNCOMPRESSED, SNAPPY (libsnappy, pyarrow's
// default), GZIP (zlib, what MLCommons DLIO maps `compression: gzip` to) and ZSTD (libzstd).
// LZO, BROTLI, LZ4 and LZ4_RAW are refused by name.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace dlbench::formats::parquet {

// The specification's name of a CompressionCodec value ("SNAPPY"), or "unknown".
const char* CodecName(std::int32_t codec);
bool CodecSupported(std::int32_t codec);

// Decompresses one page body `in` into exactly `out` (its uncompressed size, from the page
// header). Throws thrift::DecodeError when the body is corrupt, does not produce exactly
// out.size() bytes or has bytes left over, and for a codec that CodecSupported() refuses.
void Decompress(std::int32_t codec, std::span<const std::byte> in, std::span<std::byte> out);

}  // namespace dlbench::formats::parquet
