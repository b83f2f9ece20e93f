// An estimate of how many distinct values a stream of 64-bit hashes held, in 1 KiB: HyperLogLog
// (Flajolet et al. 2007) with 1,024 one-byte registers, standard error 1.04 / √1024 ≈ 3 %, and the
// linear-counting correction for small counts (exact-ish below ~2,500). The hashes must be well
// mixed (CountingEnv::HashPath is). Not thread-safe: the caller locks. Pure values, no I/O.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>

namespace dlbench::storage {

class DistinctCount {
 public:
  void add(std::uint64_t hash) {
    const std::size_t index = hash >> (64 - kIndexBits);
    const std::uint64_t rest = hash << kIndexBits;
    const auto rank =
        static_cast<std::uint8_t>(rest == 0 ? 64 - kIndexBits + 1 : std::countl_zero(rest) + 1);
    registers_[index] = std::max(registers_[index], rank);
  }
  std::uint64_t estimate() const {
    double sum = 0;
    std::size_t zeros = 0;
    for (const std::uint8_t r : registers_) {
      sum += std::ldexp(1.0, -r);
      if (r == 0) ++zeros;
    }
    constexpr double m = kRegisters;
    const double raw = 0.7213 / (1 + 1.079 / m) * m * m / sum;
    if (raw <= 2.5 * m && zeros > 0) {
      return static_cast<std::uint64_t>(std::llround(m * std::log(m / static_cast<double>(zeros))));
    }
    return static_cast<std::uint64_t>(std::llround(raw));
  }
  void clear() { registers_.fill(0); }

 private:
  static constexpr int kIndexBits = 10;
  static constexpr std::size_t kRegisters = std::size_t{1} << kIndexBits;
  std::array<std::uint8_t, kRegisters> registers_{};
};

}  // namespace dlbench::storage
