// How many distinct values a stream of 64-bit hashes held, in 2 KiB: exactly up to kExact
// distinct hashes (they are kept), then an estimate: HyperLogLog (Flajolet et al. 2007) with
// 1,024 one-byte registers, standard error 1.04 / √1024 ≈ 3 %, and the linear-counting correction
// for small counts. The hashes must be well mixed (CountingEnv::HashPath is). Not thread-safe:
// the caller locks. Pure values, no I/O.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>

namespace dlbench::storage {

class DistinctCount {
 public:
  static constexpr std::size_t kExact = 128;

  void add(std::uint64_t hash) {
    if (exact_.size() <= kExact) {
      const auto at = std::lower_bound(exact_.begin(), exact_.end(), hash);
      if (at == exact_.end() || *at != hash) exact_.insert(at, hash);
    }
    const std::size_t index = hash >> (64 - kIndexBits);
    const std::uint64_t rest = hash << kIndexBits;
    const auto rank =
        static_cast<std::uint8_t>(rest == 0 ? 64 - kIndexBits + 1 : std::countl_zero(rest) + 1);
    registers_[index] = std::max(registers_[index], rank);
  }
  std::uint64_t estimate() const {
    if (exact_.size() <= kExact) return exact_.size();
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
  void clear() {
    registers_.fill(0);
    exact_.clear();
  }

 private:
  static constexpr int kIndexBits = 10;
  static constexpr std::size_t kRegisters = std::size_t{1} << kIndexBits;
  std::array<std::uint8_t, kRegisters> registers_{};
  // The distinct hashes, sorted, while there are at most kExact (one more says "more").
  std::vector<std::uint64_t> exact_;
};

}  // namespace dlbench::storage
