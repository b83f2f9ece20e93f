// A keyed bijection of [0, n) computed per element in O(1) time and memory, so that a rank can
// walk its share of a shuffled epoch of billions of samples without materialising (or even
// touching) the whole permutation: a balanced Feistel network over the smallest even number of
// bits covering n, with cycle walking (re-encrypt until the value falls inside [0, n)). Because
// the domain is at most 4n, a lookup takes fewer than 4 encryptions on average.
#pragma once

#include <array>
#include <cstdint>

namespace dlbench::pipeline {

class FeistelPermutation {
 public:
  FeistelPermutation() = default;  // the identity of [0, 0)
  FeistelPermutation(std::uint64_t n, std::uint64_t key);

  std::uint64_t size() const { return n_; }
  // The image of x; requires x < size().
  std::uint64_t operator()(std::uint64_t x) const;

 private:
  static constexpr int kRounds = 6;
  std::uint64_t encrypt(std::uint64_t x) const;

  std::uint64_t n_ = 0;
  int half_bits_ = 1;
  std::uint64_t half_mask_ = 1;
  std::array<std::uint64_t, kRounds> round_keys_{};
};

}  // namespace dlbench::pipeline
