#include "formats/registry.h"

#include <gtest/gtest.h>

#include <span>
#include <string>
#include <tuple>
#include <vector>

#include "format_test_support.h"
#include "support/expect_error.h"
#include "support/test_support.h"
#include "util/error.h"

namespace dlbench::formats {
namespace {

// Image files hold one sample; the others are tested with two.
std::int64_t SamplesPerFile(config::Format format) {
  return format == config::Format::kJpeg || format == config::Format::kPng ? 1 : 2;
}

TEST(Registry, EverySupportedFormatRoundTripsOneFile) {
  dlbench::test::TempDir dir;
  const auto content = test::RandomContent();
  for (const auto& [format, name] : config::EnumNames<config::Format>::kNames) {
    if (!IsSupported(format)) continue;
    FileSpec spec;
    spec.path = (dir / (std::string("f.") + name)).string();
    spec.file_index = 4;
    spec.sample_dims = {12, 10};
    spec.samples = SamplesPerFile(format);
    test::WriteFile(*MakeWriter(format), spec, content);
    auto reader = MakeReader(format)->open(storage::PosixEnv(), spec, {});
    std::vector<std::byte> out(reader->sample_bytes());
    const Bytes read = reader->read_sample(spec.samples - 1, out);
    if (format == config::Format::kSynthetic) {
      EXPECT_EQ(read, 0u);
      EXPECT_EQ(test::ReadAll(spec.path), "4");
    } else {
      EXPECT_GE(read, 120u) << name;
    }
  }
}

TEST(Registry, EveryReaderRefusesASampleOutsideItsFileOrAShortBuffer) {
  dlbench::test::TempDir dir;
  const auto content = test::RandomContent();
  for (const auto& [format, name] : config::EnumNames<config::Format>::kNames) {
    if (!IsSupported(format)) continue;
    FileSpec spec;
    spec.path = (dir / (std::string("f.") + name)).string();
    spec.sample_dims = {8};
    spec.samples = SamplesPerFile(format);
    test::WriteFile(*MakeWriter(format), spec, content);
    auto reader = MakeReader(format)->open(storage::PosixEnv(), spec, {});
    std::vector<std::byte> out(reader->sample_bytes());
    const std::string outside = "asked of a file of " + std::to_string(spec.samples) + " samples";
    for (const auto& [k, buffer, what] :
         {std::tuple{spec.samples, std::span<std::byte>(out), outside.c_str()},
          std::tuple{std::int64_t{-1}, std::span<std::byte>(out), outside.c_str()},
          std::tuple{std::int64_t{0}, std::span<std::byte>(out).first(out.size() - 1),
                     "-byte buffer for a"}}) {
      dlbench::test::ExpectError([&] { reader->read_sample(k, buffer); }, ExitCode::kInternal,
                                 {what});
    }
  }
}

TEST(Registry, EveryFormatOfTheSchemaHasAWriterAndAReader) {
  for (const auto& [format, name] : config::EnumNames<config::Format>::kNames) {
    EXPECT_TRUE(IsSupported(format)) << name;
    EXPECT_NE(MakeWriter(format), nullptr) << name;
    EXPECT_NE(MakeReader(format), nullptr) << name;
  }
}

// Shared writing needs bytes that follow from the sample index (or parallel HDF5); companions are
// the index files of tfrecord and indexed binary.
TEST(Registry, SaysWhichFormatsHaveASharedWriterAndWhichCompanions) {
  using config::Format;
  for (const Format f : {Format::kNpy, Format::kTfrecord, Format::kIndexedBinary,
                         Format::kMmapIndexedBinary, Format::kHdf5}) {
    EXPECT_NE(MakeSharedWriter(f), nullptr) << config::ToString(f);
  }
  for (const Format f : {Format::kNpz, Format::kCsv, Format::kJpeg, Format::kPng, Format::kParquet,
                         Format::kSynthetic}) {
    EXPECT_EQ(MakeSharedWriter(f), nullptr) << config::ToString(f);
  }
  EXPECT_FALSE(MakeSharedWriter(Format::kHdf5)->file_size(FileSpec{}).has_value());
  EXPECT_EQ(CompanionsOf(Format::kTfrecord), Companions::kDaliIndex);
  EXPECT_EQ(CompanionsOf(Format::kIndexedBinary), Companions::kIndexFiles);
  EXPECT_EQ(CompanionsOf(Format::kMmapIndexedBinary), Companions::kIndexFiles);
  EXPECT_EQ(CompanionsOf(Format::kNpy), Companions::kNone);
}

}  // namespace
}  // namespace dlbench::formats
