#include "util/crc32c.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

namespace dlbench {
namespace {

TEST(Crc32c, CheckValueOnBothPaths) {
  const std::string s = "123456789";
  EXPECT_EQ(crc32c::ExtendPortable(0, s.data(), s.size()), 0xE3069283u);
  EXPECT_EQ(crc32c::ExtendHardware(0, s.data(), s.size()), 0xE3069283u);
  EXPECT_EQ(crc32c::Value(s.data(), s.size()), 0xE3069283u);
}

TEST(Crc32c, KnownVectors) {
  // RFC 3720 B.4: 32 bytes of zeros and of 0xFF.
  std::vector<unsigned char> zeros(32, 0), ones(32, 0xFF);
  EXPECT_EQ(crc32c::ExtendPortable(0, zeros.data(), 32), 0x8A9136AAu);
  EXPECT_EQ(crc32c::ExtendPortable(0, ones.data(), 32), 0x62A8AB43u);
  EXPECT_EQ(crc32c::ExtendHardware(0, zeros.data(), 32), 0x8A9136AAu);
  EXPECT_EQ(crc32c::ExtendHardware(0, ones.data(), 32), 0x62A8AB43u);
}

TEST(Crc32c, MaskOfEmptyAndRoundTrip) {
  EXPECT_EQ(crc32c::Mask(crc32c::Value("", 0)), 0xA282EAD8u);
  for (std::uint32_t v : {0u, 1u, 0xE3069283u, 0xFFFFFFFFu, 0x12345678u}) {
    EXPECT_EQ(crc32c::Unmask(crc32c::Mask(v)), v);
    EXPECT_NE(crc32c::Mask(v), v);
  }
}

TEST(Crc32c, PathsAgreeOnManyLengthsAndAlignments) {
  std::vector<unsigned char> data(1100);
  std::uint32_t x = 12345;
  for (auto& b : data) {
    x = x * 1103515245u + 12345u;
    b = static_cast<unsigned char>(x >> 24);
  }
  for (std::size_t offset = 0; offset < 9; ++offset) {
    for (std::size_t length = 0; length + offset <= data.size(); length += (length < 70 ? 1 : 37)) {
      const std::uint32_t portable = crc32c::ExtendPortable(0, data.data() + offset, length);
      ASSERT_EQ(crc32c::ExtendHardware(0, data.data() + offset, length), portable)
          << "offset " << offset << " length " << length;
    }
  }
}

TEST(Crc32c, ExtendEqualsWholeValue) {
  const std::string s = "the quick brown fox jumps over the lazy dog, twice over";
  const std::uint32_t whole = crc32c::Value(s.data(), s.size());
  for (std::size_t cut = 0; cut <= s.size(); ++cut) {
    const std::uint32_t first = crc32c::ExtendPortable(0, s.data(), cut);
    EXPECT_EQ(crc32c::ExtendPortable(first, s.data() + cut, s.size() - cut), whole);
    EXPECT_EQ(crc32c::ExtendHardware(crc32c::ExtendHardware(0, s.data(), cut), s.data() + cut,
                                     s.size() - cut),
              whole);
  }
}

}  // namespace
}  // namespace dlbench
