#include "util/crc32c.h"

#include <array>
#include <cstring>

#if defined(__x86_64__)
#include <nmmintrin.h>
#endif

namespace dlbench::crc32c {
namespace {

constexpr std::uint32_t kPolyReflected = 0x82F63B78u;

// Slicing-by-8 tables: kTables[j][b] is the CRC of byte b followed by j zero bytes.
using Tables = std::array<std::array<std::uint32_t, 256>, 8>;
constexpr Tables MakeTables() {
  Tables t{};
  for (std::uint32_t b = 0; b < 256; ++b) {
    std::uint32_t c = b;
    for (int k = 0; k < 8; ++k) c = (c & 1) ? (c >> 1) ^ kPolyReflected : c >> 1;
    t[0][b] = c;
  }
  for (std::uint32_t b = 0; b < 256; ++b) {
    for (int j = 1; j < 8; ++j) t[j][b] = (t[j - 1][b] >> 8) ^ t[0][t[j - 1][b] & 0xFF];
  }
  return t;
}
constexpr Tables kTables = MakeTables();

std::uint64_t LoadLe64(const unsigned char* p) {
  std::uint64_t v;
  std::memcpy(&v, p, sizeof v);  // x86-64 and aarch64 Linux are little-endian
  return v;
}

#if defined(__x86_64__)
__attribute__((target("sse4.2"))) std::uint32_t ExtendSse42(std::uint32_t crc,
                                                            const unsigned char* p, std::size_t n) {
  std::uint64_t c = ~crc;
  while (n > 0 && (reinterpret_cast<std::uintptr_t>(p) & 7) != 0) {
    c = _mm_crc32_u8(static_cast<std::uint32_t>(c), *p++);
    --n;
  }
  while (n >= 8) {
    c = _mm_crc32_u64(c, LoadLe64(p));
    p += 8;
    n -= 8;
  }
  while (n > 0) {
    c = _mm_crc32_u8(static_cast<std::uint32_t>(c), *p++);
    --n;
  }
  return ~static_cast<std::uint32_t>(c);
}
#endif

bool DetectHardware() {
#if defined(__x86_64__)
  return __builtin_cpu_supports("sse4.2");
#else
  return false;
#endif
}

}  // namespace

bool HardwareAvailable() {
  static const bool kAvailable = DetectHardware();
  return kAvailable;
}

std::uint32_t ExtendPortable(std::uint32_t crc, const void* data, std::size_t length) {
  const auto* p = static_cast<const unsigned char*>(data);
  std::uint32_t c = ~crc;
  while (length >= 8) {
    const std::uint64_t word = LoadLe64(p) ^ c;
    c = kTables[7][word & 0xFF] ^ kTables[6][(word >> 8) & 0xFF] ^ kTables[5][(word >> 16) & 0xFF] ^
        kTables[4][(word >> 24) & 0xFF] ^ kTables[3][(word >> 32) & 0xFF] ^
        kTables[2][(word >> 40) & 0xFF] ^ kTables[1][(word >> 48) & 0xFF] ^ kTables[0][word >> 56];
    p += 8;
    length -= 8;
  }
  while (length > 0) {
    c = (c >> 8) ^ kTables[0][(c ^ *p++) & 0xFF];
    --length;
  }
  return ~c;
}

std::uint32_t ExtendHardware(std::uint32_t crc, const void* data, std::size_t length) {
#if defined(__x86_64__)
  if (HardwareAvailable()) return ExtendSse42(crc, static_cast<const unsigned char*>(data), length);
#endif
  return ExtendPortable(crc, data, length);
}

std::uint32_t Extend(std::uint32_t crc, const void* data, std::size_t length) {
  return HardwareAvailable() ? ExtendHardware(crc, data, length)
                             : ExtendPortable(crc, data, length);
}

}  // namespace dlbench::crc32c
