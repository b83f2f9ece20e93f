#include "formats/image/png_row_filter.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <vector>

#include "util/error.h"

namespace dlbench::formats {
namespace {

// A filtered byte's distance from zero, the byte read as signed (libpng's heuristic).
unsigned Distance(unsigned v) { return v < 128 ? v : 256 - v; }

unsigned PaethPredictor(unsigned a, unsigned b, unsigned c) {
  const int p = static_cast<int>(b) - static_cast<int>(c);
  const int q = static_cast<int>(a) - static_cast<int>(c);
  const int pa = std::abs(p);
  const int pb = std::abs(q);
  const int pc = std::abs(p + q);
  if (pa <= pb && pa <= pc) return a;
  return pb <= pc ? b : c;
}

// The row filtered with `F` into out, its sum of distances returned.
template <PngFilter F>
std::uint64_t Apply(const unsigned char* up, const unsigned char* row, std::size_t n,
                    unsigned char* out) {
  std::uint64_t sum = 0;
  for (std::size_t i = 0; i < n; ++i) {
    unsigned predicted = 0;
    if constexpr (F == PngFilter::kSub) {
      predicted = i > 0 ? row[i - 1] : 0;
    } else if constexpr (F == PngFilter::kUp) {
      predicted = up[i];
    } else if constexpr (F == PngFilter::kPaeth) {
      predicted = i > 0 ? PaethPredictor(row[i - 1], up[i], up[i - 1]) : up[i];
    }
    const unsigned v = (row[i] - predicted) & 0xFF;
    out[i] = static_cast<unsigned char>(v);
    sum += Distance(v);
  }
  return sum;
}

}  // namespace

PngFilter FilterPngRow(std::span<const std::byte> previous, std::span<const std::byte> row,
                       std::span<std::byte> out) {
  if (previous.size() != row.size() || out.size() != row.size() + 1) {
    throw InternalError("png row filter: rows of different widths");
  }
  const auto* up = reinterpret_cast<const unsigned char*>(previous.data());
  const auto* pixels = reinterpret_cast<const unsigned char*>(row.data());
  auto* best = reinterpret_cast<unsigned char*>(out.data()) + 1;
  std::array<unsigned char, 4096> stack{};
  std::vector<unsigned char> heap(row.size() > stack.size() ? row.size() : 0);
  unsigned char* trial = heap.empty() ? stack.data() : heap.data();
  PngFilter chosen = PngFilter::kNone;
  std::uint64_t least = Apply<PngFilter::kNone>(up, pixels, row.size(), best);
  auto consider = [&](PngFilter filter, std::uint64_t sum) {
    if (sum >= least) return;  // the earlier filter keeps a tie
    least = sum;
    chosen = filter;
    std::copy_n(trial, row.size(), best);
  };
  consider(PngFilter::kSub, Apply<PngFilter::kSub>(up, pixels, row.size(), trial));
  consider(PngFilter::kUp, Apply<PngFilter::kUp>(up, pixels, row.size(), trial));
  consider(PngFilter::kPaeth, Apply<PngFilter::kPaeth>(up, pixels, row.size(), trial));
  out[0] = static_cast<std::byte>(chosen);
  return chosen;
}

}  // namespace dlbench::formats
