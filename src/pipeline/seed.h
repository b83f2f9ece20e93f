// Derivation of independent random streams from the one configured seed. Every consumer of
// randomness in the pipeline (shuffles, compute and preprocess times) gets its own stream keyed
// by what it is for, so that adding a draw in one place never shifts the numbers of another and
// a rank's sequence does not depend on thread scheduling.
#pragma once

#include <cstdint>
#include <initializer_list>

namespace dlbench::pipeline {

// What a random stream is used for; part of its key.
enum class StreamPurpose : std::uint64_t {
  kFileShuffle = 1,
  kSampleShuffle = 2,
  kComputeTime = 3,
  kPreprocessTime = 4,
  kEvalTime = 5,
};

// splitmix64's finaliser: a bijection of 64-bit values with full avalanche.
constexpr std::uint64_t Mix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// A 64-bit key for the tuple `parts` (order matters).
constexpr std::uint64_t MixSeed(std::initializer_list<std::uint64_t> parts) {
  std::uint64_t h = 0x6a09e667f3bcc908ULL;
  for (std::uint64_t part : parts) h = Mix64(h ^ Mix64(part));
  return h;
}

}  // namespace dlbench::pipeline
