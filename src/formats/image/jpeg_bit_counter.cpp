#include "formats/image/jpeg_bit_counter.h"

#include <bit>
#include <cstdlib>
#include <string>

#include "util/error.h"

namespace dlbench::formats {
namespace {

// Zigzag position -> natural (row-major) position of a coefficient in an 8x8 block.
constexpr std::array<std::uint8_t, 64> kZigzag = {
    0,  1,  8,  16, 9,  2,  3,  10, 17, 24, 32, 25, 18, 11, 4,  5,  12, 19, 26, 33, 40, 48,
    41, 34, 27, 20, 13, 6,  7,  14, 21, 28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23,
    30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63};

std::array<std::uint8_t, 256> CodeLengths(const JHUFF_TBL& table) {
  std::array<std::uint8_t, 256> lengths{};
  std::size_t symbol = 0;
  for (int length = 1; length <= 16; ++length) {
    for (int i = 0; i < table.bits[length]; ++i) {
      if (symbol >= lengths.size()) throw InternalError("jpeg bit counter: a table of > 256 codes");
      lengths[table.huffval[symbol++]] = static_cast<std::uint8_t>(length);
    }
  }
  return lengths;
}

// The magnitude category of a coefficient or difference: the bits of |v|.
unsigned Category(int v) { return static_cast<unsigned>(std::bit_width(std::abs(v) * 1u)); }

[[noreturn, gnu::noinline, gnu::cold]] void NoCode(const char* table, unsigned symbol) {
  throw InternalError(std::string("jpeg bit counter: the ") + table + " table has no code for " +
                      std::to_string(symbol));
}

std::uint32_t Code(const std::array<std::uint8_t, 256>& lengths, unsigned symbol,
                   const char* table) {
  const std::uint8_t length = lengths[symbol];
  if (length == 0) NoCode(table, symbol);
  return length;
}

}  // namespace

JpegBitCounter::JpegBitCounter(const JHUFF_TBL& dc, const JHUFF_TBL& ac)
    : dc_(CodeLengths(dc)), ac_(CodeLengths(ac)) {}

std::uint32_t JpegBitCounter::dc_bits(int diff) const {
  const unsigned category = Category(diff);
  return Code(dc_, category, "DC") + category;
}

std::uint32_t JpegBitCounter::ac_bits(const JCOEF* block) const {
  std::uint32_t bits = 0;
  unsigned run = 0;
  for (std::size_t k = 1; k < kZigzag.size(); ++k) {
    const int v = block[kZigzag[k]];
    if (v == 0) {
      ++run;
      continue;
    }
    for (; run > 15; run -= 16) bits += Code(ac_, 0xF0, "AC");  // ZRL
    const unsigned category = Category(v);
    bits += Code(ac_, run << 4 | category, "AC") + category;
    run = 0;
  }
  if (run > 0) bits += Code(ac_, 0x00, "AC");  // EOB
  return bits;
}

}  // namespace dlbench::formats
