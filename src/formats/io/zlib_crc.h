// zlib's crc32 (the CRC of png chunks and of gzip members) over byte spans, for the writers that
// put files together from pre-deflated pieces (png_assembly.h, csv_assembly.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace dlbench::formats {

// crc32 of `bytes` continuing `crc` (0 for none). zlib returns 0 for a null buffer, which an empty
// span may have: `crc` is returned unchanged then.
std::uint32_t Crc32(std::uint32_t crc, std::span<const std::byte> bytes);

}  // namespace dlbench::formats
