// Deflate of noise as zlib codes it in a per-file png (png_literal_deflate.h): zlib inflates it
// back, byte-aligned, for any bytes, a few of them or one value only among them.
#include "formats/image/png_literal_deflate.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <vector>

#include "format_test_support.h"
#include "raw_inflate.h"
#include "support/expect_error.h"
#include "util/error.h"

namespace dlbench::formats {
namespace {

TEST(DeflateLiterals, InflatesBackWithZlib) {
  std::vector<std::byte> noise(40000);
  test::RandomContent().fill(1, 0, noise);
  for (const std::vector<std::byte>& bytes :
       {noise, std::vector<std::byte>(noise.begin(), noise.begin() + 3),
        std::vector<std::byte>(1000, std::byte{0xFF}), std::vector<std::byte>(1, std::byte{0})}) {
    std::vector<std::byte> deflated = {std::byte{0x42}};  // appends
    DeflateLiterals(bytes, deflated);
    EXPECT_EQ(deflated[0], std::byte{0x42});
    deflated.erase(deflated.begin());
    EXPECT_EQ(test::InflateRaw(deflated, bytes.size()), bytes) << bytes.size();
    // Two in a row inflate too (each ends byte-aligned, not final).
    std::vector<std::byte> twice = deflated;
    twice.insert(twice.end(), deflated.begin(), deflated.end());
    std::vector<std::byte> expected = bytes;
    expected.insert(expected.end(), bytes.begin(), bytes.end());
    EXPECT_EQ(test::InflateRaw(twice, expected.size()), expected);
  }
  // Noise: ~8 bits a byte, the block's header and the empty stored block ~50 bytes.
  std::vector<std::byte> deflated;
  DeflateLiterals(noise, deflated);
  EXPECT_LT(deflated.size(), noise.size() + noise.size() / 200 + 64);
  dlbench::test::ExpectError(
      [] {
        std::vector<std::byte> out;
        DeflateLiterals({}, out);
      },
      ExitCode::kInternal, {"deflate literals: nothing to code"});
}

}  // namespace
}  // namespace dlbench::formats
