// Sizes, rates and durations of dlbench's own keys (storage.tiers, generation_buffer_size).
#include "config/units_parser.h"

#include <gtest/gtest.h>

#include "util/size_text.h"

namespace dlbench::config {
namespace {

TEST(UnitsParser, SizesInBinaryAndDecimalUnits) {
  EXPECT_EQ(ParseSize("64GiB"), 64 * GiB);
  EXPECT_EQ(ParseSize("64 GiB"), 64 * GiB);
  EXPECT_EQ(ParseSize("1TiB"), 1024 * GiB);
  EXPECT_EQ(ParseSize("3KiB"), 3 * KiB);
  EXPECT_EQ(ParseSize("5MiB"), 5 * MiB);
  EXPECT_EQ(ParseSize("2KB"), 2000u);
  EXPECT_EQ(ParseSize("2MB"), 2000000u);
  EXPECT_EQ(ParseSize("2GB"), 2000000000u);
  EXPECT_EQ(ParseSize("1TB"), 1000000000000u);
  EXPECT_EQ(ParseSize("17B"), 17u);
  EXPECT_EQ(ParseSize("17"), 17u);
  EXPECT_EQ(ParseSize("1.5KiB"), 1536u);
  EXPECT_EQ(ParseSize("2_147_483_648"), 2 * GiB);
}

TEST(UnitsParser, SizesRejectUnknownUnitsFractionsAndNegatives) {
  EXPECT_FALSE(ParseSize("64G"));
  EXPECT_FALSE(ParseSize("64gib"));
  EXPECT_FALSE(ParseSize("0.5B"));
  EXPECT_FALSE(ParseSize("-1KiB"));
  EXPECT_FALSE(ParseSize("KiB"));
  EXPECT_FALSE(ParseSize(""));
  EXPECT_FALSE(ParseSize("inf"));
}

TEST(UnitsParser, Rates) {
  EXPECT_EQ(ParseRate("400MiB/s"), 400.0 * MiB);
  EXPECT_EQ(ParseRate("1.5 GB/s"), 1.5e9);
  EXPECT_EQ(ParseRate("1000"), 1000.0);
  EXPECT_FALSE(ParseRate("400MiB/h"));
  EXPECT_FALSE(ParseRate("fast"));
}

TEST(UnitsParser, Durations) {
  EXPECT_EQ(ParseDuration("2ms"), 0.002);
  EXPECT_EQ(ParseDuration("1.5s"), 1.5);
  EXPECT_EQ(ParseDuration("250us"), 250e-6);
  EXPECT_EQ(ParseDuration("3"), 3.0);
  EXPECT_EQ(ParseDuration("1e-3"), 0.001);
  EXPECT_FALSE(ParseDuration("2min"));
  EXPECT_FALSE(ParseDuration("-1ms"));
  EXPECT_FALSE(ParseDuration("ms"));
}

TEST(UnitsParser, FormatsReadBackExactly) {
  EXPECT_EQ(FormatSize(64 * GiB), "64GiB");
  EXPECT_EQ(FormatSize(1536), "1536B");  // 1.5KiB is not a whole number of KiB
  EXPECT_EQ(FormatSize(0), "0B");
  EXPECT_EQ(FormatRate(400.0 * MiB), "400MiB/s");
  EXPECT_EQ(FormatDuration(0.002), "2ms");
  EXPECT_EQ(FormatDuration(0.0), "0s");
  EXPECT_EQ(FormatDuration(2.0), "2s");
  for (double seconds : {0.0021, 1e-7, 3.25, 123456.789}) {
    EXPECT_EQ(ParseDuration(FormatDuration(seconds)), seconds) << FormatDuration(seconds);
  }
  for (double rate : {1.5e9, 0.25, 400.0 * MiB}) {
    EXPECT_EQ(ParseRate(FormatRate(rate)), rate) << FormatRate(rate);
  }
  for (Bytes bytes : {Bytes{1}, 3 * KiB, 5 * GiB + 1, Bytes{1000000}}) {
    EXPECT_EQ(ParseSize(FormatSize(bytes)), bytes) << FormatSize(bytes);
  }
}

}  // namespace
}  // namespace dlbench::config
