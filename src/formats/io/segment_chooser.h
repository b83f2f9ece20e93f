// The choice of pool segments for one assembled file (jpeg_assembly.h, png_assembly.h,
// csv_assembly.h):
// a splitmix64 generator seeded with the first 8 bytes of the file's content, so that the same
// seed and file give the same file whatever was written before.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "dataset/content.h"
#include "formats/format.h"

namespace dlbench::formats {

class SegmentChooser {
 public:
  // `main_size`: the number of segments of the pool next_main() draws from (at least 1).
  SegmentChooser(const dataset::ContentGenerator& content, FileIndex file, std::size_t main_size);

  // The next main-pool segment: a partial Fisher-Yates shuffle, so no segment comes twice
  // before all have come once.
  std::size_t next_main();
  // A uniform choice in [0, n), n >= 1.
  std::size_t below(std::size_t n) { return static_cast<std::size_t>(next() % n); }
  // The 8 bytes of the file's content the generator was seeded with (files put them in a
  // comment so that even files of one segment differ).
  const std::array<std::byte, 8>& seed() const { return seed_; }

 private:
  std::uint64_t next();

  std::array<std::byte, 8> seed_{};
  std::uint64_t state_ = 0;
  std::vector<std::uint32_t> order_;
  std::size_t left_ = 0;
};

}  // namespace dlbench::formats
