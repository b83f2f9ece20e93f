#include "formats/parquet/parquet_levels.h"

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "format_files_fixture.h"
#include "formats/parquet/thrift_compact.h"
#include "parquet_file_builder.h"

namespace dlbench::formats::parquet {
namespace {

std::span<const std::byte> AsBytes(const std::string& s) {
  return {reinterpret_cast<const std::byte*>(s.data()), s.size()};
}

// Every value of a hybrid sequence, run by run.
std::vector<std::uint32_t> DecodeAll(const std::string& data, int bit_width, std::size_t count) {
  HybridRuns runs(AsBytes(data), bit_width, "test values");
  std::vector<std::uint32_t> out;
  while (out.size() < count) {
    const HybridRuns::Run run = runs.next();
    for (std::uint64_t i = 0; i < run.count && out.size() < count; ++i) {
      out.push_back(run.packed ? runs.unpack(run, i) : run.value);
    }
  }
  EXPECT_TRUE(runs.done());
  return out;
}

std::string ErrorOf(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const thrift::DecodeError& e) {
    return e.what();
  }
  return "no error";
}

TEST(ParquetLevels, LevelBitWidths) {
  EXPECT_EQ(LevelBitWidth(0), 0);
  EXPECT_EQ(LevelBitWidth(1), 1);
  EXPECT_EQ(LevelBitWidth(2), 2);
  EXPECT_EQ(LevelBitWidth(3), 2);
  EXPECT_EQ(LevelBitWidth(4), 3);
}

TEST(ParquetLevels, EveryBitWidthFrom0To32RoundTripsRleAndBitPackedRuns) {
  for (int width = 0; width <= 32; ++width) {
    const std::uint64_t top = width == 0 ? 0 : (std::uint64_t{1} << width) - 1;
    std::vector<std::uint32_t> values;
    for (int i = 0; i < 21; ++i) values.push_back(static_cast<std::uint32_t>(top));  // RLE run
    for (std::uint64_t i = 0; i < 29; ++i) {  // bit-packed, the last group padded
      values.push_back(static_cast<std::uint32_t>((i * 0x9E3779B1u) & top));
    }
    for (int i = 0; i < 9; ++i) values.push_back(0);  // RLE run of the smallest value
    const std::string encoded = test::EncodeHybrid(values, width);
    EXPECT_EQ(DecodeAll(encoded, width, values.size()), values) << "bit width " << width;
    std::vector<std::uint32_t> some(7);  // indices 23..29, inside the bit-packed run
    DecodeDictionaryIndices(AsBytes(static_cast<char>(width) + encoded), 23, some, top + 1);
    EXPECT_EQ(some, std::vector<std::uint32_t>(values.begin() + 23, values.begin() + 30))
        << "bit width " << width;
  }
}

TEST(ParquetLevels, MalformedRunsAreDecodeErrors) {
  EXPECT_NE(ErrorOf([] { HybridRuns(AsBytes(""), 33, "x"); }).find("bit width 33"),
            std::string::npos);
  EXPECT_NE(ErrorOf([] { HybridRuns(AsBytes(""), 1, "x").next(); }).find("runs end before"),
            std::string::npos);
  EXPECT_NE(ErrorOf([] { HybridRuns(AsBytes("\x80"), 1, "x").next(); }).find("truncated"),
            std::string::npos);
  EXPECT_NE(ErrorOf([] {
              HybridRuns(AsBytes(std::string(11, '\xff')), 1, "x").next();
            }).find("longer than 10 bytes"),
            std::string::npos);
  EXPECT_NE(ErrorOf([] {
              HybridRuns(AsBytes(std::string("\x00\x01", 2)), 1, "x").next();
            }).find("empty run"),
            std::string::npos);
  EXPECT_NE(ErrorOf([] { HybridRuns(AsBytes("\x04"), 8, "x").next(); }).find("without its value"),
            std::string::npos);
  EXPECT_NE(ErrorOf([] { HybridRuns(AsBytes("\x04\x02"), 1, "x").next(); }).find("wider"),
            std::string::npos);
  // 3 groups of 8 values of 4 bits need 12 bytes.
  EXPECT_NE(ErrorOf([] {
              HybridRuns(AsBytes("\x07" + std::string(11, '\0')), 4, "x").next();
            }).find("bit-packed run past the end"),
            std::string::npos);
  EXPECT_NE(ErrorOf([] {
              HybridRuns(AsBytes("\xff\xff\xff\xff\xff\xff\xff\x01\x00"), 1, "x").next();
            }).find("longer than any page"),
            std::string::npos);
}

TEST(ParquetLevels, RepetitionLevelsMustDescribeRowsOfSizeValues) {
  // Rows of 3: 0 1 1 | 0 1 1 ..., starting anywhere in a row (pages cut inside rows).
  std::vector<std::uint32_t> levels;
  for (int s = 4; s < 4 + 40; ++s) levels.push_back(s % 3 == 0 ? 0 : 1);
  EXPECT_NO_THROW(CheckRepetitionLevels(AsBytes(test::EncodeHybrid(levels, 1)), 4, 40, 3));
  // Long rows: RLE runs of ones.
  std::vector<std::uint32_t> long_rows;
  for (int s = 0; s < 300; ++s) long_rows.push_back(s % 100 == 0 ? 0 : 1);
  EXPECT_NO_THROW(CheckRepetitionLevels(AsBytes(test::EncodeHybrid(long_rows, 1)), 0, 300, 100));
  EXPECT_NO_THROW(
      CheckRepetitionLevels(AsBytes(test::EncodeHybrid(std::vector<std::uint32_t>(50, 0), 1)), 7,
                            50, 1));  // rows of one value: every level 0
  EXPECT_NE(ErrorOf([&] {
              CheckRepetitionLevels(
                  AsBytes(test::EncodeHybrid(levels, 1) + std::string("\x02\x00", 2)), 4, 40, 3);
            }).find("bytes after the last level"),
            std::string::npos);
  levels[5] ^= 1;
  EXPECT_NE(ErrorOf([&] {
              CheckRepetitionLevels(AsBytes(test::EncodeHybrid(levels, 1)), 4, 40, 3);
            }).find("repetition levels: level"),
            std::string::npos);
  EXPECT_NE(ErrorOf([&] {
              CheckRepetitionLevels(AsBytes(test::EncodeHybrid(long_rows, 1)), 0, 150, 100);
            }).find("an RLE run past the page's last value"),
            std::string::npos);
  long_rows[150] = 0;  // a row of 50 values
  EXPECT_NE(ErrorOf([&] {
              CheckRepetitionLevels(AsBytes(test::EncodeHybrid(long_rows, 1)), 0, 300, 100);
            }).find("rows of 100 values"),
            std::string::npos);
}

TEST(ParquetLevels, ADefinitionLevelBelowTheMaximumIsANullNamingItsRow) {
  std::vector<std::uint32_t> levels(30, 3);
  EXPECT_NO_THROW(CheckDefinitionLevels(AsBytes(test::EncodeHybrid(levels, 2)), 0, 30, 3, 5));
  levels[17] = 2;  // bit-packed around it
  const std::string error =
      ErrorOf([&] { CheckDefinitionLevels(AsBytes(test::EncodeHybrid(levels, 2)), 10, 30, 3, 5); });
  EXPECT_NE(error.find("level 2 of 3"), std::string::npos) << error;
  EXPECT_NE(error.find("in row 5 "), std::string::npos) << error;  // slot 27 of rows of 5
  const std::string rle = ErrorOf([&] {
    CheckDefinitionLevels(AsBytes(test::EncodeHybrid(std::vector<std::uint32_t>(20, 0), 1)), 0, 20,
                          1, 1);
  });
  EXPECT_NE(rle.find("level 0 of 1"), std::string::npos) << rle;
}

TEST(ParquetLevels, DictionaryIndicesAreCheckedAgainstTheDictionary) {
  const std::vector<std::uint32_t> indices{0, 1, 2, 3, 4, 5, 6, 7, 2, 2, 2, 2, 2, 2, 2, 2, 2};
  const std::string data = '\x03' + test::EncodeHybrid(indices, 3);
  std::vector<std::uint32_t> out(17);
  DecodeDictionaryIndices(AsBytes(data), 0, out, 8);
  EXPECT_EQ(out, indices);
  EXPECT_NE(ErrorOf([&] {
              DecodeDictionaryIndices(AsBytes(data), 0, out, 7);
            }).find("index 7 of value 7 past the dictionary's 7 entries"),
            std::string::npos);
  std::vector<std::uint32_t> tail(3);
  EXPECT_NE(ErrorOf([&] {
              DecodeDictionaryIndices(AsBytes(data), 10, tail, 2);
            }).find("index 2 of value 10"),
            std::string::npos);  // an RLE run
  EXPECT_NE(
      ErrorOf([&] { DecodeDictionaryIndices(AsBytes(""), 0, out, 8); }).find("no bit-width byte"),
      std::string::npos);
  EXPECT_NE(ErrorOf([&] {
              DecodeDictionaryIndices(AsBytes("\x21\x02\x00"), 0, out, 8);
            }).find("bit width 33"),
            std::string::npos);
  std::vector<std::uint32_t> more(40);
  EXPECT_NE(
      ErrorOf([&] { DecodeDictionaryIndices(AsBytes(data), 0, more, 8); }).find("runs end before"),
      std::string::npos);
  // Bit width 0: a one-entry dictionary (hyparquet-writer writes it so).
  std::vector<std::uint32_t> zeros(12, 9);
  DecodeDictionaryIndices(AsBytes(std::string("\x00\x18", 2)), 0, zeros, 1);
  EXPECT_EQ(zeros, std::vector<std::uint32_t>(12, 0));
}

}  // namespace
}  // namespace dlbench::formats::parquet
