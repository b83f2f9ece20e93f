#include "checkpoint/tensor_content.h"

#include <algorithm>
#include <cstring>

namespace dlbench::checkpoint {
namespace {

constexpr std::uint64_t kGolden = 0x9E3779B97F4A7C15ULL;

// splitmix64's finaliser: a bijective mix that makes consecutive counters look independent.
inline std::uint64_t Mix(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

inline std::uint64_t Word(std::uint64_t key, std::uint64_t index) {
  return Mix(key + index * kGolden);
}

std::uint64_t Fnv1a(std::uint64_t hash, std::string_view text) {
  for (char c : text) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 0x100000001B3ULL;
  }
  return hash;
}

}  // namespace

std::uint64_t ContentKey(std::uint64_t seed, std::string_view checkpoint_name,
                         std::string_view file_name) {
  std::uint64_t hash = Fnv1a(0xCBF29CE484222325ULL, checkpoint_name);
  hash = Fnv1a(hash, "/");
  hash = Fnv1a(hash, file_name);
  return Mix(hash ^ Mix(seed + kGolden));
}

void FillContent(std::uint64_t key, bool randomize, Bytes offset, std::span<std::byte> out) {
  if (!randomize) {
    std::fill(out.begin(), out.end(), std::byte{1});
    return;
  }
  std::byte* p = out.data();
  std::size_t left = out.size();
  std::uint64_t index = offset / 8;
  const std::size_t skip = offset % 8;
  if (skip != 0 && left > 0) {
    const std::uint64_t v = Word(key, index++);
    const std::size_t n = std::min(left, 8 - skip);
    std::memcpy(p, reinterpret_cast<const std::byte*>(&v) + skip, n);
    p += n;
    left -= n;
  }
  while (left >= 8) {
    const std::uint64_t v = Word(key, index++);
    std::memcpy(p, &v, 8);
    p += 8;
    left -= 8;
  }
  if (left > 0) {
    const std::uint64_t v = Word(key, index);
    std::memcpy(p, &v, left);
  }
}

}  // namespace dlbench::checkpoint
