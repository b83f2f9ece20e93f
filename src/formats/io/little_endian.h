// Little-endian field encoding for the binary headers of zip, npy and index files.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace dlbench::formats {

inline void PutLe(std::string& out, std::uint64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i) out += static_cast<char>((value >> (8 * i)) & 0xFF);
}

inline void StoreLe(std::byte* out, std::uint64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i) out[i] = static_cast<std::byte>(value >> (8 * i));
}

inline std::uint64_t GetLe(const void* data, int bytes) {
  const auto* p = static_cast<const unsigned char*>(data);
  std::uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v |= static_cast<std::uint64_t>(p[i]) << (8 * i);
  return v;
}

}  // namespace dlbench::formats
