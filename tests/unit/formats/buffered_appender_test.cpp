// BufferedAppender: appends reach the file in order whether they went through the buffer or,
// with write_through, straight to the file after what was buffered.
#include "formats/buffered_appender.h"

#include <gtest/gtest.h>

#include <array>
#include <span>
#include <string>

#include "format_test_support.h"
#include "storage/file.h"
#include "support/test_support.h"

namespace dlbench::formats {
namespace {

TEST(BufferedAppender, WriteThroughFollowsWhatWasBuffered) {
  const dlbench::test::TempDir dir;
  const std::string path = (dir.path() / "f").string();
  auto file = storage::PosixEnv().create(path);
  std::array<std::byte, 4> buffer{};
  const auto bytes = [](const char* text) {
    return std::as_bytes(std::span(text, std::char_traits<char>::length(text)));
  };
  {
    BufferedAppender out(*file, buffer);
    out.append("ab", 2);
    out.write_through(bytes("cdefghij"));  // longer than the buffer
    EXPECT_EQ(out.position(), 10u);
    out.append("klmnop", 6);  // flushes on the way
    out.write_through(bytes(""));
    out.append("q", 1);
    out.flush();
    EXPECT_EQ(out.position(), 17u);
  }
  file->close();
  EXPECT_EQ(test::ReadAll(path), "abcdefghijklmnopq");
}

}  // namespace
}  // namespace dlbench::formats
