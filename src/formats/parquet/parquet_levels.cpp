#include "formats/parquet/parquet_levels.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <string>

#include "formats/io/little_endian.h"
#include "formats/parquet/thrift_compact.h"

namespace dlbench::formats::parquet {
namespace {

// A run longer than any page can be (a page's value count is an i32) is corrupt; the cap also
// keeps count arithmetic far from overflow.
constexpr std::uint64_t kMaxRunValues = 1ull << 40;

[[noreturn]] void LevelError(const char* what, const std::string& why) {
  throw thrift::DecodeError(std::string(what) + ": " + why);
}

// Walks the runs of a page's levels: exactly `count` values, numbered from the chunk's `first`.
// Calls rle(p, value, n) for an RLE run of n values from position p, and packed(p, run, n) for
// the first n values of a bit-packed run (the rest is the last group's padding). An RLE run past
// the last value, and bytes after the run holding it, are errors.
template <class Rle, class Packed>
void VisitLevelRuns(HybridRuns& runs, std::int64_t first, std::int64_t count, const Rle& rle,
                    const Packed& packed) {
  std::int64_t p = first;
  const std::int64_t end = first + count;
  while (p < end) {
    const HybridRuns::Run run = runs.next();
    const auto left = static_cast<std::uint64_t>(end - p);
    const auto take = static_cast<std::int64_t>(std::min(run.count, left));
    if (!run.packed) {
      if (run.count > left) runs.fail("an RLE run past the page's last value");
      rle(p, run.value, take);
    } else {
      packed(p, run, take);
    }
    p += take;
  }
  if (!runs.done()) runs.fail("bytes after the last level");
}

}  // namespace

int LevelBitWidth(int max_level) {
  int bits = 0;
  while (bits < kMaxBitWidth && (std::int64_t{1} << bits) <= max_level) ++bits;
  return bits;
}

HybridRuns::HybridRuns(std::span<const std::byte> data, int bit_width, const char* what)
    : data_(data), bit_width_(bit_width), what_(what) {
  if (bit_width < 0 || bit_width > kMaxBitWidth) {
    LevelError(what, "bit width " + std::to_string(bit_width) + " (at most 32)");
  }
}

void HybridRuns::fail(const char* why) const {
  LevelError(what_, std::string(why) + " (byte " + std::to_string(pos_) + " of " +
                        std::to_string(data_.size()) + ")");
}

std::uint64_t HybridRuns::varint() {
  std::uint64_t v = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (pos_ >= data_.size()) fail("truncated run header");
    const auto b = static_cast<std::uint8_t>(data_[pos_++]);
    v |= static_cast<std::uint64_t>(b & 0x7F) << shift;
    if ((b & 0x80) == 0) return v;
  }
  fail("run header longer than 10 bytes");
}

HybridRuns::Run HybridRuns::next() {
  if (done()) fail("the runs end before the page's last value");
  const std::uint64_t header = varint();
  const std::uint64_t n = header >> 1;
  if (n == 0) fail("an empty run");
  if (n > kMaxRunValues / 8) fail("a run longer than any page");
  Run run;
  const std::size_t left = data_.size() - pos_;
  if (header & 1) {
    const auto width = static_cast<std::uint64_t>(bit_width_);
    if (width != 0 && n > left / width) fail("a bit-packed run past the end");
    run.packed = true;
    run.bits = data_.data() + pos_;
    run.count = n * 8;
    pos_ += static_cast<std::size_t>(n * width);
    return run;
  }
  const auto bytes = static_cast<std::size_t>((bit_width_ + 7) / 8);
  if (left < bytes) fail("an RLE run without its value");
  std::uint64_t value = 0;
  for (std::size_t i = 0; i < bytes; ++i) {
    value |= static_cast<std::uint64_t>(static_cast<std::uint8_t>(data_[pos_ + i])) << (8 * i);
  }
  if (bit_width_ < kMaxBitWidth && (value >> bit_width_) != 0) {
    fail("an RLE value wider than the bit width");
  }
  pos_ += bytes;
  run.value = static_cast<std::uint32_t>(value);
  run.count = n;
  return run;
}

std::uint32_t HybridRuns::unpack(const Run& run, std::uint64_t i) const {
  if (bit_width_ == 0) return 0;
  const auto width = static_cast<std::uint64_t>(bit_width_);
  const std::uint64_t bit = i * width;
  const std::uint64_t byte = bit >> 3;
  const std::uint64_t total = run.count / 8 * width;  // the run's bytes
  std::uint64_t word = 0;
  if (std::endian::native == std::endian::little && total - byte >= 8) {
    std::memcpy(&word, run.bits + byte, 8);  // one load: the hot path of dictionary indices
  } else {
    word = GetLe(run.bits + byte, static_cast<int>(std::min<std::uint64_t>(8, total - byte)));
  }
  const std::uint64_t mask = (std::uint64_t{1} << width) - 1;
  return static_cast<std::uint32_t>((word >> (bit & 7)) & mask);
}

void CheckRepetitionLevels(std::span<const std::byte> data, std::int64_t first, std::int64_t count,
                           std::int64_t size) {
  HybridRuns runs(data, 1, "repetition levels");
  const auto bad = [&](std::int64_t at, std::uint32_t level) {
    LevelError("repetition levels",
               "level " + std::to_string(level) + " at value " + std::to_string(at) +
                   " of the column chunk, where rows of " + std::to_string(size) + " values need " +
                   (at % size == 0 ? "0" : "1"));
  };
  VisitLevelRuns(
      runs, first, count,
      [&](std::int64_t p, std::uint32_t level, std::int64_t n) {
        const std::int64_t phase = p % size;
        if (level == 0 ? (phase != 0 || (n > 1 && size > 1)) : (phase == 0 || phase + n > size)) {
          bad(p, level);
        }
      },
      [&](std::int64_t p, const HybridRuns::Run& run, std::int64_t n) {
        std::int64_t phase = p % size;
        for (std::int64_t i = 0; i < n; ++i) {
          const std::uint32_t level = runs.unpack(run, static_cast<std::uint64_t>(i));
          if (level != (phase == 0 ? 0u : 1u)) bad(p + i, level);
          if (++phase == size) phase = 0;
        }
      });
}

void CheckDefinitionLevels(std::span<const std::byte> data, std::int64_t first, std::int64_t count,
                           int max_definition, std::int64_t size) {
  HybridRuns runs(data, LevelBitWidth(max_definition), "definition levels");
  const auto null = [&](std::int64_t at, std::uint32_t level) {
    LevelError("definition levels",
               "level " + std::to_string(level) + " of " + std::to_string(max_definition) +
                   " (a null or an empty list) in row " + std::to_string(at / size) +
                   " of the row group; DLIO samples have no nulls");
  };
  const auto want = static_cast<std::uint32_t>(max_definition);
  VisitLevelRuns(
      runs, first, count,
      [&](std::int64_t p, std::uint32_t level, std::int64_t) {
        if (level != want) null(p, level);
      },
      [&](std::int64_t p, const HybridRuns::Run& run, std::int64_t n) {
        for (std::int64_t i = 0; i < n; ++i) {
          const std::uint32_t level = runs.unpack(run, static_cast<std::uint64_t>(i));
          if (level != want) null(p + i, level);
        }
      });
}

void DecodeDictionaryIndices(std::span<const std::byte> data, std::int64_t from,
                             std::span<std::uint32_t> out, std::uint64_t dictionary_size) {
  if (data.empty()) LevelError("dictionary indices", "no bit-width byte");
  HybridRuns runs(data.subspan(1), static_cast<int>(static_cast<std::uint8_t>(data[0])),
                  "dictionary indices");
  const auto bad = [&](std::int64_t at, std::uint32_t index) {
    LevelError("dictionary indices", "index " + std::to_string(index) + " of value " +
                                         std::to_string(at) + " past the dictionary's " +
                                         std::to_string(dictionary_size) + " entries");
  };
  const auto end = from + static_cast<std::int64_t>(out.size());
  std::int64_t p = 0;
  std::size_t o = 0;
  while (p < end) {
    const HybridRuns::Run run = runs.next();
    const auto run_end = p + static_cast<std::int64_t>(run.count);
    if (run_end > from) {
      const std::int64_t lo = std::max(p, from);
      const std::int64_t hi = std::min(run_end, end);
      if (!run.packed) {
        if (run.value >= dictionary_size) bad(lo, run.value);
        std::fill_n(out.begin() + static_cast<std::ptrdiff_t>(o), hi - lo, run.value);
        o += static_cast<std::size_t>(hi - lo);
      } else {
        for (std::int64_t j = lo; j < hi; ++j) {
          const std::uint32_t index = runs.unpack(run, static_cast<std::uint64_t>(j - p));
          if (index >= dictionary_size) bad(j, index);
          out[o++] = index;
        }
      }
    }
    p = run_end;
  }
}

}  // namespace dlbench::formats::parquet
