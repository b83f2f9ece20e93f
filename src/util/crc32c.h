// CRC32C (Castagnoli), the checksum of TFRecord framing, with TensorFlow's mask. The hardware
// path (SSE4.2 `crc32`) is chosen at run time so one binary runs on any x86-64; both paths are
// exposed so tests can check that they agree.
#pragma once

#include <cstddef>
#include <cstdint>

namespace dlbench::crc32c {

// Extends `crc` (a finished CRC32C of earlier bytes, 0 for none) with `length` bytes.
std::uint32_t Extend(std::uint32_t crc, const void* data, std::size_t length);
inline std::uint32_t Value(const void* data, std::size_t length) { return Extend(0, data, length); }

// The two implementations behind Extend.
std::uint32_t ExtendPortable(std::uint32_t crc, const void* data, std::size_t length);
std::uint32_t ExtendHardware(std::uint32_t crc, const void* data, std::size_t length);
bool HardwareAvailable();

// TensorFlow / LevelDB masking: CRCs of data that itself contains CRCs are hard to tell apart
// from accidental matches, so stored CRCs are rotated and offset.
inline constexpr std::uint32_t kMaskDelta = 0xA282EAD8u;
constexpr std::uint32_t Mask(std::uint32_t crc) { return ((crc >> 15) | (crc << 17)) + kMaskDelta; }
constexpr std::uint32_t Unmask(std::uint32_t masked) {
  const std::uint32_t rot = masked - kMaskDelta;
  return (rot >> 17) | (rot << 15);
}

}  // namespace dlbench::crc32c
