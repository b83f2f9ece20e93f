#include <gtest/gtest.h>

#include <string>

#include "util/error.h"

namespace dlbench {
namespace {

TEST(FileText, PrintableAsciiStaysTheRestIsEscapedOnOneLine) {
  EXPECT_EQ(FileText("descr"), "descr");
  EXPECT_EQ(FileText(std::string("d\xff\nsc\r\t\x01\x7f", 9)), "d\\xff\\nsc\\r\\t\\x01\\x7f");
  EXPECT_EQ(FileText(std::string("\0a", 2)), "\\x00a");
}

TEST(FileText, LongTextIsCutAfterMostBytes) {
  EXPECT_EQ(FileText(std::string(100, 'k')), std::string(64, 'k') + "...");
  EXPECT_EQ(FileText("abcdef", 3), "abc...");
  EXPECT_EQ(FileText("abc", 3), "abc");
}

}  // namespace
}  // namespace dlbench
