#include "formats/image/png_literal_deflate.h"

#include <algorithm>
#include <array>
#include <cstdint>

#include "util/error.h"

namespace dlbench::formats {
namespace {

// Bits into bytes, least significant bit first (RFC 1951 3.1.1).
class BitWriter {
 public:
  explicit BitWriter(std::vector<std::byte>& out) : out_(out) {}
  void put(std::uint32_t value, unsigned count) {
    buffer_ |= static_cast<std::uint64_t>(value) << filled_;
    filled_ += count;
    while (filled_ >= 8) {
      out_.push_back(static_cast<std::byte>(buffer_ & 0xFF));
      buffer_ >>= 8;
      filled_ -= 8;
    }
  }
  void align() {
    if (filled_ > 0) put(0, 8 - filled_);
  }

 private:
  std::vector<std::byte>& out_;
  std::uint64_t buffer_ = 0;
  unsigned filled_ = 0;
};

constexpr unsigned kEndOfBlock = 256;
// The code length alphabet's symbols in the order their lengths are sent (RFC 1951 3.2.7), up to
// symbol 1, the last one used here.
constexpr std::array<unsigned, 18> kLengthOrder = {16, 17, 18, 0,  8, 7,  9, 6,  10,
                                                   5,  11, 4,  12, 3, 13, 2, 14, 1};

// A Huffman code as put(): its bits go from the most significant one (RFC 1951 3.1.1).
std::uint32_t Reversed(std::uint32_t code, unsigned length) {
  std::uint32_t reversed = 0;
  for (unsigned i = 0; i < length; ++i) reversed |= (code >> i & 1u) << (length - 1 - i);
  return reversed;
}

}  // namespace

void DeflateLiterals(std::span<const std::byte> bytes, std::vector<std::byte>& out) {
  if (bytes.empty()) throw InternalError("deflate literals: nothing to code");
  std::array<std::size_t, 256> count{};
  for (const std::byte b : bytes) ++count[std::to_integer<unsigned>(b)];
  const auto rare =
      static_cast<unsigned>(std::min_element(count.begin(), count.end()) - count.begin());
  // Canonical codes (RFC 1951 3.2.2): the 255 8-bit literals in order take 0 .. 254, then the
  // 9-bit ones (the rare literal, end-of-block) 510 and 511; kept reversed, ready for put().
  std::array<std::uint32_t, 257> code{};
  std::array<unsigned, 257> length{};
  std::uint32_t next = 0;
  for (unsigned s = 0; s < 256; ++s) {
    if (s == rare) continue;
    code[s] = next++;
    length[s] = 8;
  }
  code[rare] = 510;
  length[rare] = 9;
  code[kEndOfBlock] = 511;
  length[kEndOfBlock] = 9;
  for (unsigned s = 0; s <= kEndOfBlock; ++s) code[s] = Reversed(code[s], length[s]);

  BitWriter w(out);
  w.put(0, 1);   // not the final block
  w.put(2, 2);   // dynamic Huffman codes
  w.put(0, 5);   // HLIT: 257 literal/length codes
  w.put(0, 5);   // HDIST: 1 distance code
  w.put(14, 4);  // HCLEN: 18 code length codes
  // The code length code: 8 -> "0", 1 -> "10", 9 -> "11".
  for (const unsigned symbol : kLengthOrder)
    w.put(symbol == 8 ? 1 : symbol == 1 || symbol == 9 ? 2 : 0, 3);
  auto put_length = [&](unsigned l) {
    if (l == 8) w.put(Reversed(0, 1), 1);
    if (l == 1) w.put(Reversed(2, 2), 2);
    if (l == 9) w.put(Reversed(3, 2), 2);
  };
  for (unsigned s = 0; s <= kEndOfBlock; ++s) put_length(length[s]);
  put_length(1);  // the distance code, of one bit
  for (const std::byte b : bytes) {
    const unsigned s = std::to_integer<unsigned>(b);
    w.put(code[s], length[s]);
  }
  w.put(code[kEndOfBlock], length[kEndOfBlock]);
  w.put(0, 1);  // an empty stored block, not final: then byte-aligned LEN 0, NLEN 0xFFFF
  w.put(0, 2);
  w.align();
  for (const unsigned b : {0x00u, 0x00u, 0xFFu, 0xFFu}) out.push_back(static_cast<std::byte>(b));
}

}  // namespace dlbench::formats
