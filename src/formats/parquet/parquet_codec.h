// The page codecs dlbench's Parquet reader decompresses and its writer compresses: UNCOMPRESSED,
// SNAPPY (libsnappy, pyarrow's default), GZIP (zlib, what MLCommons DLIO maps `compression: gzip`
// to) and ZSTD (libzstd). LZO, BROTLI, LZ4 and LZ4_RAW are refused by name.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace dlbench::formats::parquet {

// The specification's name of a CompressionCodec value ("SNAPPY"), or "unknown".
const char* CodecName(std::int32_t codec);
bool CodecSupported(std::int32_t codec);

// Decompresses one page body `in` into exactly `out` (its uncompressed size, from the page
// header). Throws thrift::DecodeError when the body is corrupt, does not produce exactly
// out.size() bytes or has bytes left over, and for a codec that CodecSupported() refuses.
void Decompress(std::int32_t codec, std::span<const std::byte> in, std::span<std::byte> out);

// Compresses one page body `in` into `out` (resized to the codec's bound, reused across pages);
// returns the compressed length. `level`: zlib's 0..9 for GZIP, libzstd's 1..22 for ZSTD
// (config::Validate holds dataset.compression_level to them); SNAPPY has none.
// Error(kInternal) for UNCOMPRESSED and the codecs CodecSupported() refuses.
std::size_t Compress(std::int32_t codec, int level, std::span<const std::byte> in,
                     std::vector<std::byte>& out);

}  // namespace dlbench::formats::parquet
