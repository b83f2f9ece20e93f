// YAML 1.1 / Hydra scalar spellings.
#include "config/scalar_parser.h"

#include <gtest/gtest.h>

#include <cmath>

namespace dlbench::config {
namespace {

TEST(ScalarParser, Integers) {
  EXPECT_EQ(ParseInteger("0"), 0);
  EXPECT_EQ(ParseInteger("-20"), -20);
  EXPECT_EQ(ParseInteger("+5"), 5);
  EXPECT_EQ(ParseInteger("1_000_000"), 1000000);
  EXPECT_EQ(ParseInteger("9223372036854775807"), INT64_MAX);
  EXPECT_EQ(ParseInteger("-9223372036854775808"), INT64_MIN);
  EXPECT_FALSE(ParseInteger("9223372036854775808"));
  EXPECT_FALSE(ParseInteger("_1"));
  EXPECT_FALSE(ParseInteger("1__0"));
  EXPECT_FALSE(ParseInteger("1_"));
  EXPECT_FALSE(ParseInteger("1.0"));
  EXPECT_FALSE(ParseInteger("0x10"));
  EXPECT_FALSE(ParseInteger("123abc"));
  EXPECT_FALSE(ParseInteger(""));
  EXPECT_FALSE(ParseInteger("-"));
}

TEST(ScalarParser, Floats) {
  EXPECT_EQ(ParseFloat("3.14"), 3.14);
  EXPECT_EQ(ParseFloat("-20.0"), -20.0);
  EXPECT_EQ(ParseFloat(".5"), 0.5);
  EXPECT_EQ(ParseFloat("5."), 5.0);
  EXPECT_EQ(ParseFloat("1e-3"), 0.001);
  EXPECT_EQ(ParseFloat("-10e3"), -10000.0);
  EXPECT_EQ(ParseFloat("114660.07"), 114660.07);
  EXPECT_EQ(ParseFloat("7"), 7.0);
  EXPECT_TRUE(std::isinf(*ParseFloat("inf")));
  EXPECT_TRUE(std::isinf(*ParseFloat("-INF")));
  EXPECT_TRUE(std::isinf(*ParseFloat(".inf")));
  EXPECT_TRUE(std::isnan(*ParseFloat("NaN")));
  EXPECT_FALSE(ParseFloat("1e3x"));
  EXPECT_FALSE(ParseFloat("e3"));
  EXPECT_FALSE(ParseFloat("."));
  EXPECT_FALSE(ParseFloat("1e"));
  EXPECT_FALSE(ParseFloat("abc"));
}

TEST(ScalarParser, Yaml11Booleans) {
  for (const char* text : {"true", "True", "TRUE", "yes", "Yes", "on", "ON"}) {
    EXPECT_EQ(ParseBool(text), true) << text;
  }
  for (const char* text : {"false", "False", "FALSE", "no", "NO", "off", "Off", "OFF"}) {
    EXPECT_EQ(ParseBool(text), false) << text;
  }
  EXPECT_FALSE(ParseBool("1"));
  EXPECT_FALSE(ParseBool("y"));
  EXPECT_FALSE(ParseBool("maybe"));
}

TEST(ScalarParser, FloatFormattingRoundTrips) {
  for (double value : {0.1, 0.323, 114660.07, 1e-300, 1e300, -2.5, 3.0}) {
    EXPECT_EQ(ParseFloat(FormatFloat(value)), value) << FormatFloat(value);
  }
  EXPECT_EQ(FormatFloat(3.0), "3.0");
  EXPECT_EQ(FormatFloat(INFINITY), ".inf");
}

}  // namespace
}  // namespace dlbench::config
