// Every format's files written to and read from an Env with an object store's rules
// (support/memory_object_env.h: whole objects, no writes at offsets, no rename, no folders) come
// out byte for byte as on the POSIX Env, and read back the same samples. npz takes its
// sequential path there (each member encoded twice); hdf5, which can only write at offsets, is
// refused with a usage error naming the path.
#include <gtest/gtest.h>

#include <cstddef>
#include <string>
#include <vector>

#include "config/enums.h"
#include "format_test_support.h"
#include "formats/format.h"
#include "formats/registry.h"
#include "storage/file.h"
#include "support/expect_error.h"
#include "support/files.h"
#include "support/memory_object_env.h"
#include "support/test_support.h"

namespace dlbench::formats::test {
namespace {

FileSpec SpecFor(config::Format format, const std::string& folder) {
  FileSpec spec;
  spec.path = folder + "/img_3_of_8." + config::ToString(format);
  spec.file_index = 3;
  spec.sample_dims = {24, 24};
  const bool image = format == config::Format::kJpeg || format == config::Format::kPng;
  spec.samples = image ? 1 : 5;  // an image file holds one
  if (format == config::Format::kTfrecord) spec.dali_index_path = folder + "/index/img_3_of_8.idx";
  return spec;
}

// Every sample of the file `spec`, read through `env` by the format's reader.
std::vector<std::vector<std::byte>> ReadAllSamples(config::Format format, storage::Env& env,
                                                   const FileSpec& spec) {
  const auto reader = MakeReader(format)->open(env, spec, {});
  std::vector<std::vector<std::byte>> samples;
  for (std::int64_t k = 0; k < reader->samples(); ++k) {
    std::vector<std::byte> sample(reader->sample_bytes());
    reader->read_sample(k, sample);
    samples.push_back(std::move(sample));
  }
  return samples;
}

class ObjectStoreRoundTrip : public ::testing::TestWithParam<config::Format> {};

TEST_P(ObjectStoreRoundTrip, WritesTheSameBytesAndReadsTheSameSamples) {
  const config::Format format = GetParam();
  dlbench::test::TempDir dir;
  dlbench::test::MemoryObjectEnv objects;
  const FileSpec on_disk = SpecFor(format, dir.path().string());
  storage::PosixEnv().create_directories(dir.path().string() + "/index");  // the DALI index's
  const FileSpec in_bucket = SpecFor(format, "/bucket/train");
  const dataset::ContentGenerator content = RandomContent();
  std::vector<std::byte> buffer(4096);
  const WriteResult disk = MakeWriter(format)->write(storage::PosixEnv(), on_disk, content, buffer);
  const WriteResult bucket = MakeWriter(format)->write(objects, in_bucket, content, buffer);
  EXPECT_EQ(bucket.data_bytes, disk.data_bytes);
  ASSERT_EQ(bucket.files.size(), disk.files.size());
  for (std::size_t i = 0; i < disk.files.size(); ++i) {
    EXPECT_EQ(objects.object(bucket.files[i]), dlbench::test::ReadFile(disk.files[i]))
        << disk.files[i];
  }
  EXPECT_EQ(objects.refused(), 0u);
  const config::Format reading =
      format == config::Format::kIndexedBinary ? config::Format::kMmapIndexedBinary : format;
  EXPECT_EQ(ReadAllSamples(reading, objects, in_bucket),
            ReadAllSamples(reading, storage::PosixEnv(), on_disk));
}

INSTANTIATE_TEST_SUITE_P(Formats, ObjectStoreRoundTrip,
                         ::testing::Values(config::Format::kNpy, config::Format::kNpz,
                                           config::Format::kTfrecord, config::Format::kCsv,
                                           config::Format::kParquet, config::Format::kJpeg,
                                           config::Format::kPng, config::Format::kIndexedBinary),
                         [](const auto& test) { return config::ToString(test.param); });

TEST(ObjectStoreRoundTrip, Hdf5IsRefusedNamingThePath) {
  dlbench::test::MemoryObjectEnv objects;
  const FileSpec spec = SpecFor(config::Format::kHdf5, "/bucket/train");
  std::vector<std::byte> buffer(4096);
  dlbench::test::ExpectError(
      [&] { MakeWriter(config::Format::kHdf5)->write(objects, spec, RandomContent(), buffer); },
      ExitCode::kUsage, {"hdf5", spec.path, "writes at offsets"});
  EXPECT_TRUE(objects.keys().empty());
}

}  // namespace
}  // namespace dlbench::formats::test
