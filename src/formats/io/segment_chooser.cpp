#include "formats/io/segment_chooser.h"

#include <numeric>
#include <utility>

namespace dlbench::formats {

SegmentChooser::SegmentChooser(const dataset::ContentGenerator& content, FileIndex file,
                               std::size_t main_size)
    : order_(main_size) {
  content.fill(file, 0, seed_);
  for (const std::byte b : seed_) state_ = state_ << 8 | std::to_integer<std::uint64_t>(b);
  std::iota(order_.begin(), order_.end(), std::uint32_t{0});
}

std::size_t SegmentChooser::next_main() {
  if (left_ == 0) left_ = order_.size();
  const std::size_t end = left_--;
  const std::size_t j = below(end);
  std::swap(order_[j], order_[end - 1]);
  return order_[end - 1];
}

std::uint64_t SegmentChooser::next() {
  std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

}  // namespace dlbench::formats
