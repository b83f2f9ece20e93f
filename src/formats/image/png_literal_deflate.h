// Deflate (RFC 1951) of noise as zlib codes it inside a per-file png above its 64 KB window: a
// dynamic-Huffman block of literals, ~8 bits a byte — zlib cannot store a block whose start has
// left its window, and noise leaves nothing for matches to gain — then an empty stored block,
// so that the output ends on a byte boundary (what zlib's Z_SYNC_FLUSH writes) and can be
// followed by any other such output inside one deflate stream. The assembled png pool
// (png_segment_pool.h) codes its segments with it, so that inflating an assembled file costs
// what inflating a per-file one costs (zlib's own choice for a segment of a few KB, flushed by
// itself, is a stored block: a copy).
//
// The block's code: 255 literals of 8 bits; the least frequent literal and end-of-block of 9
// bits (a complete code); one distance code, unused.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace dlbench::formats {

// Appends the deflate of `bytes` (not empty) to `out`.
void DeflateLiterals(std::span<const std::byte> bytes, std::vector<std::byte>& out);

}  // namespace dlbench::formats
