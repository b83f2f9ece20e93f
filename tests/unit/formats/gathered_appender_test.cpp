// GatheredAppender: kept pieces and copied bytes reach the file in order, in gathered writes of
// at most kMaxPieces pieces, whatever the buffer's size.
#include "formats/io/gathered_appender.h"

#include <gtest/gtest.h>

#include <array>
#include <span>
#include <string>

#include "format_test_support.h"
#include "storage/counting_env.h"
#include "storage/file.h"
#include "support/test_support.h"

namespace dlbench::formats {
namespace {

TEST(GatheredAppender, KeptAndCopiedBytesReachTheFileInOrder) {
  const dlbench::test::TempDir dir;
  const std::string path = (dir.path() / "f").string();
  storage::CountingEnv env(storage::PosixEnv());
  auto file = env.create(path);
  const std::string large(GatheredAppender::kCopyBelow, 'L');
  const auto bytes = [](const std::string& text) { return std::as_bytes(std::span(text)); };
  std::array<std::byte, 4> buffer{};
  std::string expected;
  {
    GatheredAppender out(*file, buffer);
    out.copy("ab", 2);
    out.keep(bytes(large));
    out.copy("cd", 2);
    out.copy("efg", 3);          // fills the buffer: flushes first
    out.copy("0123456789", 10);  // larger than the buffer: its own write
    out.keep(bytes("hi"));       // short: copied
    out.keep(bytes(""));
    out.flush();
    out.flush();  // nothing left: no write
    expected = "ab" + large + "cdefg0123456789hi";
    for (std::size_t i = 0; i < GatheredAppender::kMaxPieces + 1; ++i) {
      out.keep(bytes(large));
      expected += large;
    }
    out.flush();
  }
  EXPECT_EQ(file->appended(), expected.size());
  file->close();
  EXPECT_EQ(test::ReadAll(path), expected);
  // "ab"+L+"cd"; "efg"; the long copy; "hi"; then kMaxPieces+1 pieces in two writes.
  EXPECT_EQ(env.counts().writes, 6u);
}

}  // namespace
}  // namespace dlbench::formats
