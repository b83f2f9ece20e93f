#include "formats/csv/csv_text.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "formats/io/dtype.h"
#include "util/error.h"

namespace dlbench::formats::csv {
namespace {

template <typename T>
T Load(const std::byte* p) {
  T value;
  std::memcpy(&value, p, sizeof value);
  return value;
}

template <typename T>
void Store(std::byte* p, T value) {
  std::memcpy(p, &value, sizeof value);
}

// Floats as pandas writes them (Python's repr): the shortest exact text, but an integral value
// written without exponent ends in ".0" ("0.0", not "0"). Stored floats are in [0, 1)
// (ToStoredValues), where that is the one difference from the shortest text.
template <typename T>
std::size_t FormatAll(std::span<const std::byte> elements, char* out) {
  char* p = out;
  for (std::size_t i = 0; i + sizeof(T) <= elements.size(); i += sizeof(T)) {
    const T value = Load<T>(elements.data() + i);
    char* const start = p;
    p = std::to_chars(p, p + kMaxFieldChars - 3, value).ptr;
    if constexpr (std::is_floating_point_v<T>) {
      if (value == std::trunc(value) && std::find(start, p, 'e') == p) {
        *p++ = '.';
        *p++ = '0';
      }
    }
    *p++ = ',';
  }
  return static_cast<std::size_t>(p - out);
}

// uint8, the default element type, from a table of the 256 texts with their ',': a copy of 4
// bytes per element instead of a conversion (3x faster generation of uint8 csv files).
struct ByteText {
  std::array<char, 4> text{};
  std::uint8_t length = 0;
};

constexpr std::array<ByteText, 256> MakeByteTexts() {
  std::array<ByteText, 256> table{};
  for (int v = 0; v < 256; ++v) {
    ByteText& t = table[static_cast<std::size_t>(v)];
    if (v >= 100) t.text[t.length++] = static_cast<char>('0' + v / 100);
    if (v >= 10) t.text[t.length++] = static_cast<char>('0' + v / 10 % 10);
    t.text[t.length++] = static_cast<char>('0' + v % 10);
    t.text[t.length++] = ',';
  }
  return table;
}

constexpr std::array<ByteText, 256> kByteTexts = MakeByteTexts();

char* FormatBytesFromTable(const std::byte* in, std::size_t n, char* p) {
  for (std::size_t i = 0; i < n; ++i) {
    const ByteText& t = kByteTexts[static_cast<std::uint8_t>(in[i])];
    std::memcpy(p, t.text.data(), t.text.size());  // kMaxFieldChars leaves room for all 4
    p += t.length;
  }
  return p;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
// GCC 12's AVX-512 shift intrinsics start from _mm512_undefined_epi32(), which it then reports as
// maybe uninitialized when they are inlined.
#if !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
// uint8 texts 16 at a time with AVX-512 VBMI2, ~3x the table's rate (bench_csv_text): each
// value's three digits and ',' in its 4-byte lane ("hto,", 16-bit multiply-shift division), one
// vpcompressb dropping the leading zeros (a hundreds digit below 100, a tens digit below 10), one
// 64-byte store. Returns where the text ends; writes at most 64 bytes past it (within the
// kMaxFieldChars per element the caller provides: 16 values have 16 x 32 bytes of room).
__attribute__((target("avx512f,avx512bw,avx512vbmi2,popcnt"))) char* FormatBytesVbmi2(
    const std::byte* in, std::size_t n, char* p) {
  const __m512i k10 = _mm512_set1_epi32(10);
  const __m512i k41 = _mm512_set1_epi32(41);
  const __m512i k205 = _mm512_set1_epi32(205);
  const __m512i text = _mm512_set1_epi32(0x2C303030);  // "000,"
  std::size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const __m512i v =
        _mm512_cvtepu8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(in + i)));
    // Every product fits the low 16 bits of the 32-bit lane (255 x 205 < 65536); the high
    // halves stay 0, so 16-bit multiplies and shifts act on the lane as a whole.
    const __m512i tens = _mm512_srli_epi16(_mm512_mullo_epi16(v, k205), 11);     // v / 10
    const __m512i hundreds = _mm512_srli_epi16(_mm512_mullo_epi16(v, k41), 12);  // v / 100
    const __m512i ones = _mm512_sub_epi16(v, _mm512_mullo_epi16(tens, k10));
    const __m512i tens_digit = _mm512_sub_epi16(tens, _mm512_mullo_epi16(hundreds, k10));
    const __m512i digits = _mm512_or_si512(
        hundreds, _mm512_or_si512(_mm512_slli_epi32(tens_digit, 8), _mm512_slli_epi32(ones, 16)));
    const __m512i chars = _mm512_or_si512(digits, text);
    // Kept: a hundreds digit unless 0, a tens digit unless it and the hundreds are 0, the ones
    // digit and the ','.
    const __m512i leading = _mm512_or_si512(digits, _mm512_slli_epi32(hundreds, 8));
    const __mmask64 keep = _mm512_test_epi8_mask(leading, leading) | 0xCCCCCCCCCCCCCCCCull;
    _mm512_storeu_si512(p, _mm512_maskz_compress_epi8(keep, chars));
    p += _mm_popcnt_u64(keep);
  }
  return FormatBytesFromTable(in + i, n - i, p);
}
#if !defined(__clang__)
#pragma GCC diagnostic pop
#endif

bool HasVbmi2() {
  static const bool kSupported = __builtin_cpu_supports("avx512f") &&
                                 __builtin_cpu_supports("avx512bw") &&
                                 __builtin_cpu_supports("avx512vbmi2");
  return kSupported;
}
#endif

template <>
std::size_t FormatAll<std::uint8_t>(std::span<const std::byte> elements, char* out) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  if (elements.size() >= 16 && HasVbmi2()) {
    return static_cast<std::size_t>(FormatBytesVbmi2(elements.data(), elements.size(), out) - out);
  }
#endif
  return FormatUint8Portable(elements, out);
}

// Integers of `size` bytes parsed as 64-bit, then range-checked.
template <typename Wide>
const char* ParseInteger(int size, const char* begin, const char* end, std::byte* out) {
  Wide value{};
  const auto [ptr, ec] = std::from_chars(begin, end, value);
  if (ec != std::errc()) return nullptr;
  const int bits = 8 * size;
  if constexpr (std::is_signed_v<Wide>) {
    if (bits < 64) {
      const Wide limit = Wide{1} << (bits - 1);
      if (value < -limit || value >= limit) return nullptr;
    }
  } else if (bits < 64 && value >> bits != 0) {
    return nullptr;
  }
  std::memcpy(out, &value, static_cast<std::size_t>(size));  // little-endian: the low bytes
  return ptr;
}

template <typename T>
const char* ParseFloat(const char* begin, const char* end, std::byte* out) {
  T value{};
  const auto [ptr, ec] = std::from_chars(begin, end, value);
  if (ec != std::errc()) return nullptr;
  Store(out, value);
  return ptr;
}

}  // namespace

ElementType ElementTypeOf(const std::string& dtype) {
  const DType& type = LookupDType(dtype);
  using Kind = ElementType::Kind;
  const char code = type.descr[1];
  if (code == 'u') return {Kind::kUnsigned, type.itemsize};
  if (code == 'i') return {Kind::kSigned, type.itemsize};
  if (code == 'f' && type.itemsize >= 4) return {Kind::kFloat, type.itemsize};
  // config::Validate refuses bool and float16 with csv.
  throw InternalError("csv files hold integers, float32 or float64, not " + dtype);
}

void ToStoredValues(ElementType type, std::span<std::byte> elements) {
  if (type.kind != ElementType::Kind::kFloat) return;
  for (std::size_t i = 0; i + type.size <= elements.size(); i += type.size) {
    std::byte* p = elements.data() + i;
    if (type.size == 4) {
      Store(p, static_cast<float>(Load<std::uint32_t>(p) >> 8) * 0x1p-24f);
    } else {
      Store(p, static_cast<double>(Load<std::uint64_t>(p) >> 11) * 0x1p-53);
    }
  }
}

std::size_t FormatElements(ElementType type, std::span<const std::byte> elements, char* out) {
  using Kind = ElementType::Kind;
  switch (type.kind) {
    case Kind::kUnsigned:
      switch (type.size) {
        case 1:
          return FormatAll<std::uint8_t>(elements, out);
        case 2:
          return FormatAll<std::uint16_t>(elements, out);
        case 4:
          return FormatAll<std::uint32_t>(elements, out);
        default:
          return FormatAll<std::uint64_t>(elements, out);
      }
    case Kind::kSigned:
      switch (type.size) {
        case 1:
          return FormatAll<std::int8_t>(elements, out);
        case 2:
          return FormatAll<std::int16_t>(elements, out);
        case 4:
          return FormatAll<std::int32_t>(elements, out);
        default:
          return FormatAll<std::int64_t>(elements, out);
      }
    case Kind::kFloat:
      return type.size == 4 ? FormatAll<float>(elements, out) : FormatAll<double>(elements, out);
  }
  return 0;
}

std::size_t FormatUint8Portable(std::span<const std::byte> elements, char* out) {
  return static_cast<std::size_t>(FormatBytesFromTable(elements.data(), elements.size(), out) -
                                  out);
}

const char* ParseElement(ElementType type, const char* begin, const char* end, std::byte* out) {
  switch (type.kind) {
    case ElementType::Kind::kUnsigned:
      return ParseInteger<std::uint64_t>(type.size, begin, end, out);
    case ElementType::Kind::kSigned:
      return ParseInteger<std::int64_t>(type.size, begin, end, out);
    case ElementType::Kind::kFloat:
      return type.size == 4 ? ParseFloat<float>(begin, end, out)
                            : ParseFloat<double>(begin, end, out);
  }
  return nullptr;
}

}  // namespace dlbench::formats::csv
