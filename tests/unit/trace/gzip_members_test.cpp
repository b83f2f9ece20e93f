// GzipCompressor's members: each is a whole gzip member of its text at every level, members
// written one after another read back as one text, and a level outside 1..9 is refused.
#include "trace/gzip_members.h"

#include <gtest/gtest.h>

#include <string>

#include "support/expect_error.h"
#include "util/error.h"

namespace dlbench::trace {
namespace {

TEST(GzipCompressor, MembersReadBackAsTheirText) {
  std::string text;
  for (int i = 0; i < 20000; ++i) text += "{\"file\":\"/data/img_" + std::to_string(i) + "\"}\n";
  for (int level = 1; level <= 9; ++level) {
    GzipCompressor compressor(level);
    const std::string first(compressor.member(std::string_view(text).substr(0, 1000)));
    const std::string rest(compressor.member(std::string_view(text).substr(1000)));
    EXPECT_EQ(first.substr(0, 2), "\x1f\x8b") << level;
    EXPECT_LT(rest.size(), text.size() / 2) << level;
    const Inflated inflated = InflateMembers(first + rest);
    EXPECT_TRUE(inflated.complete) << level;
    EXPECT_EQ(inflated.text, text) << level;
    EXPECT_EQ(InflateMembers(first).text, text.substr(0, 1000)) << level;
  }
}

TEST(GzipCompressor, ALevelOutside1To9IsRefused) {
  for (const int level : {0, 10, -1}) {
    test::ExpectError([&] { GzipCompressor compressor(level); }, ExitCode::kUsage,
                      {"gzip compression level must be 1..9, got " + std::to_string(level)});
  }
}

}  // namespace
}  // namespace dlbench::trace
