#include "formats/io/zlib_crc.h"

#include <zlib.h>

namespace dlbench::formats {

std::uint32_t Crc32(std::uint32_t crc, std::span<const std::byte> bytes) {
  if (bytes.empty()) return crc;
  return static_cast<std::uint32_t>(
      crc32(crc, reinterpret_cast<const Bytef*>(bytes.data()), static_cast<uInt>(bytes.size())));
}

}  // namespace dlbench::formats
