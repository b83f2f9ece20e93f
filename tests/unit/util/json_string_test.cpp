// AppendJsonString (util/json_string.h) writes what nlohmann::json's dump() writes, byte for
// byte, for every ASCII byte and for UTF-8 text; bytes that are not UTF-8 are copied.
#include "util/json_string.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

namespace dlbench {
namespace {

std::string Quoted(std::string_view text) {
  std::string out = "prefix:";
  AppendJsonString(out, text);
  return out;
}

TEST(JsonString, EveryAsciiByteIsEscapedAsTheJsonLibraryDumpsIt) {
  std::string all;
  for (int c = 0; c < 0x80; ++c) {
    const std::string one(1, static_cast<char>(c));
    EXPECT_EQ(Quoted(one), "prefix:" + nlohmann::json(one).dump()) << "byte " << c;
    all += one;
    all += "ab";
  }
  EXPECT_EQ(Quoted(all), "prefix:" + nlohmann::json(all).dump());
}

TEST(JsonString, ShortEscapesAndControlBytes) {
  EXPECT_EQ(Quoted("a\"b\\c\b\f\n\r\t\x01\x1f\x7f/"), R"(prefix:"a\"b\\c\b\f\n\r\t\u0001\u001f)"
                                                      "\x7f"
                                                      R"(/")");
  EXPECT_EQ(Quoted(""), R"(prefix:"")");
}

TEST(JsonString, Utf8IsCopiedAsTheJsonLibraryDumpsIt) {
  const std::string text = "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x93\x81\n";
  EXPECT_EQ(Quoted(text), "prefix:" + nlohmann::json(text).dump());
}

TEST(JsonString, BytesThatAreNotUtf8AreCopied) {
  EXPECT_EQ(Quoted("bad\xff\xc3"), "prefix:\"bad\xff\xc3\"");
}

}  // namespace
}  // namespace dlbench
