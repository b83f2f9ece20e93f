#include "pipeline/feistel_permutation.h"

#include <bit>

#include "pipeline/seed.h"

namespace dlbench::pipeline {

FeistelPermutation::FeistelPermutation(std::uint64_t n, std::uint64_t key) : n_(n) {
  // Bits needed for values 0..n-1, rounded up to an even count of at least 2.
  const int bits = n <= 1 ? 2 : std::bit_width(n - 1);
  half_bits_ = (bits + 1) / 2;
  half_mask_ = half_bits_ >= 64 ? ~0ULL : (1ULL << half_bits_) - 1;
  for (int i = 0; i < kRounds; ++i) {
    round_keys_[static_cast<std::size_t>(i)] = MixSeed({key, static_cast<std::uint64_t>(i)});
  }
}

std::uint64_t FeistelPermutation::encrypt(std::uint64_t x) const {
  std::uint64_t left = x >> half_bits_;
  std::uint64_t right = x & half_mask_;
  for (std::uint64_t round_key : round_keys_) {
    const std::uint64_t next = left ^ (Mix64(right ^ round_key) & half_mask_);
    left = right;
    right = next;
  }
  return (left << half_bits_) | right;
}

std::uint64_t FeistelPermutation::operator()(std::uint64_t x) const {
  if (n_ <= 1) return x;
  // Cycle walking: the network permutes [0, 2^(2·half_bits)); following x's cycle until it
  // re-enters [0, n) restricts it to a permutation of [0, n).
  std::uint64_t y = encrypt(x);
  while (y >= n_) y = encrypt(y);
  return y;
}

}  // namespace dlbench::pipeline
