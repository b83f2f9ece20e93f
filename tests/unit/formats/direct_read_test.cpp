// Reading with O_DIRECT (FileReadOptions::direct, reader.odirect): the bytes delivered equal those
// of a normal read, the data file is really opened with O_DIRECT, every read is block-aligned, no
// block is fetched twice for one sample, and the bytes reported are the blocks storage delivered.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <string>
#include <tuple>
#include <vector>

#include "format_test_support.h"
#include "formats/indexed/indexed_binary_reader.h"
#include "formats/indexed/indexed_binary_writer.h"
#include "formats/io/direct_file.h"
#include "formats/numpy/npy_reader.h"
#include "formats/numpy/npy_writer.h"
#include "formats/numpy/npz_reader.h"
#include "formats/numpy/npz_writer.h"
#include "formats/parquet/parquet_reader.h"
#include "formats/parquet/parquet_writer.h"
#include "formats/registry.h"
#include "recording_env.h"
#include "storage/aligned_buffer.h"
#include "support/expect_error.h"
#include "util/error.h"

namespace dlbench::formats {
namespace {

using storage::AlignDown;
using storage::AlignUp;
using storage::kDirectAlignment;

// What O_DIRECT fetches to cover [begin, end) of a file of `size` bytes.
Bytes Blocks(Bytes begin, Bytes end, Bytes size) {
  return std::min(AlignUp(end), size) - AlignDown(begin);
}

FileReadOptions Direct(Bytes transfer_size = 256 * KiB) {
  FileReadOptions options;
  options.direct = true;
  options.transfer_size = transfer_size;
  return options;
}

class DirectRead : public ::testing::Test {
 protected:
  void SetUp() override {
    if (dir_.path().empty()) GTEST_SKIP() << "no folder here accepts O_DIRECT";
  }

  // Every read of the data file since read `first`: aligned, and no block fetched twice.
  void expect_aligned_and_disjoint(const std::string& path, std::size_t first) {
    std::vector<std::pair<Bytes, Bytes>> ranges;
    for (std::size_t i = first; i < env_.reads.size(); ++i) {
      const test::RecordedRead& r = env_.reads[i];
      if (r.path != path) continue;
      EXPECT_TRUE(storage::IsAligned(r.offset) && storage::IsAligned(r.length))
          << "read at " << r.offset << " of " << r.length;
      ranges.emplace_back(r.offset, r.offset + r.got);
    }
    std::sort(ranges.begin(), ranges.end());
    for (std::size_t i = 1; i < ranges.size(); ++i) {
      EXPECT_LE(ranges[i - 1].second, ranges[i].first) << "block fetched twice";
    }
  }

  // True when `path` was opened exactly once, with O_DIRECT as `direct` says.
  bool opened_once(const std::string& path, bool direct) const {
    int count = 0;
    for (const test::RecordedOpen& o : env_.opens) {
      if (o.path == path && o.direct == direct) ++count;
      if (o.path == path && o.direct != direct) return false;
    }
    return count == 1;
  }

  test::DirectTempDir dir_;
  test::RecordingEnv env_{storage::PosixEnv()};
};

class DirectFileTest : public DirectRead {
 protected:
  std::string make(const std::string& name, Bytes size, int seed) {
    std::string bytes(size, '\0');
    for (Bytes i = 0; i < size; ++i) bytes[i] = static_cast<char>((i * 7 + seed) % 251);
    test::WriteAll(dir_ / name, bytes);
    return bytes;
  }
  std::string read(DirectFile& file, Bytes offset, Bytes length) {
    std::string out(length, '\0');
    out.resize(file.read_at(offset, out.data(), length));
    return out;
  }
};

TEST_F(DirectFileTest, RoundsOutToBlocksAndReusesWhatItStaged) {
  const Bytes size = 3 * kDirectAlignment + 100;
  const std::string bytes = make("a", size, 1);
  const std::string path = (dir_ / "a").string();
  const auto file = DirectFile::Open(env_, path);
  EXPECT_TRUE(opened_once(path, true));

  EXPECT_EQ(read(*file, 5000, 100), bytes.substr(5000, 100));
  ASSERT_EQ(env_.reads.size(), 1u);
  EXPECT_EQ(env_.reads[0].offset, kDirectAlignment);
  EXPECT_EQ(env_.reads[0].length, kDirectAlignment);
  EXPECT_EQ(file->bytes_read(), kDirectAlignment);

  // Inside the staged block: no I/O.
  EXPECT_EQ(read(*file, 4096, 4096), bytes.substr(4096, 4096));
  EXPECT_EQ(env_.reads.size(), 1u);

  // Across the end of the file: the last block comes back short, the copy stops at the end.
  EXPECT_EQ(read(*file, 12000, 1000), bytes.substr(12000));
  ASSERT_EQ(env_.reads.size(), 2u);
  EXPECT_EQ(env_.reads[1].offset, 2 * kDirectAlignment);
  EXPECT_EQ(env_.reads[1].length, 2 * kDirectAlignment);
  EXPECT_EQ(env_.reads[1].got, size - 2 * kDirectAlignment);
  EXPECT_EQ(file->bytes_read(), kDirectAlignment + size - 2 * kDirectAlignment);

  EXPECT_EQ(read(*file, size, 10), "");
  EXPECT_EQ(read(*file, size + 5000, 10), "");
  EXPECT_EQ(env_.reads.size(), 2u);

  // After discard_staged the same bytes are fetched again.
  file->discard_staged();
  EXPECT_EQ(read(*file, 12100, 10), bytes.substr(12100, 10));
  EXPECT_EQ(env_.reads.size(), 3u);
  expect_aligned_and_disjoint(path, 2);
}

TEST_F(DirectFileTest, FilesSharingTheThreadsStagingNeverSeeEachOthersBlocks) {
  const std::string a = make("a", 3000, 1);
  const std::string b = make("b", 3000, 2);
  ASSERT_NE(a, b);
  auto fa = DirectFile::Open(env_, (dir_ / "a").string());
  auto fb = DirectFile::Open(env_, (dir_ / "b").string());
  EXPECT_EQ(read(*fa, 10, 20), a.substr(10, 20));
  EXPECT_EQ(read(*fb, 10, 20), b.substr(10, 20));
  EXPECT_EQ(read(*fa, 10, 20), a.substr(10, 20));
  EXPECT_EQ(env_.reads.size(), 3u);
  fa.reset();
  // A file opened after another closed (perhaps at the same address) starts with nothing staged.
  fa = DirectFile::Open(env_, (dir_ / "b").string());
  EXPECT_EQ(read(*fa, 10, 20), b.substr(10, 20));
  EXPECT_EQ(env_.reads.size(), 4u);
}

TEST_F(DirectRead, NpyDeliversTheSameBytesAndReportsTheBlocks) {
  const auto content = test::RandomContent();
  for (const auto& [dims, samples, dtype, transfer] :
       std::vector<std::tuple<std::vector<std::int64_t>, std::int64_t, std::string, Bytes>>{
           {{3, 5}, 1, "uint8", 256 * KiB},       // the whole file in one block
           {{100, 70}, 1, "uint16", 256 * KiB},   // n = 1 over four blocks
           {{100, 70}, 3, "uint16", 5000},        // strided: pieces of 8 KiB
           {{17, 9}, 5, "float32", 1000},         // strided: pieces of one block
           {{64, 64}, 2, "uint8", 256 * KiB}}) {  // data ends on a block boundary + 128
    FileSpec spec;
    spec.path = (dir_ / "img_0_of_1.npy").string();
    spec.sample_dims = dims;
    spec.samples = samples;
    spec.dtype = dtype;
    test::WriteFile(NpyWriter(), spec, content);
    const Bytes size = std::filesystem::file_size(spec.path);
    const Bytes data_end = 128 + static_cast<Bytes>(samples) * spec.sample_bytes();
    SCOPED_TRACE(spec.path + " of " + std::to_string(size) +
                 " bytes, n = " + std::to_string(samples));

    env_.opens.clear();
    env_.reads.clear();
    auto reader = NpyReader().open(env_, spec, Direct(transfer));
    EXPECT_TRUE(opened_once(spec.path, true));
    EXPECT_EQ(reader->open_bytes(), std::min(kDirectAlignment, size));  // block 0: the header
    EXPECT_EQ(reader->open_bytes(), env_.bytes_since(0));
    std::vector<std::byte> out(spec.sample_bytes());
    for (std::int64_t k = samples - 1; k >= 0; --k) {
      const std::size_t first = env_.reads.size();
      const Bytes read = reader->read_sample(k, out);
      EXPECT_EQ(out, test::SampleLastBytes(content, spec, k)) << "sample " << k;
      // n = 1: the blocks of the sample; n > 1: those of the whole array.
      EXPECT_EQ(read, Blocks(128, data_end, size));
      EXPECT_EQ(read, env_.bytes_since(first));
      expect_aligned_and_disjoint(spec.path, first);
    }
    // Each sample is its own read, not served from the blocks the previous one left.
    const std::size_t first = env_.reads.size();
    EXPECT_EQ(reader->read_sample(0, out), Blocks(128, data_end, size));
    EXPECT_GT(env_.reads.size(), first);
  }
}

TEST_F(DirectRead, NpzDeliversTheSameBytesAndReportsTheBlocks) {
  const auto content = test::RandomContent();
  for (const auto compression : {config::Compression::kNone, config::Compression::kZip}) {
    for (const auto& [dims, samples, dtype] :
         std::vector<std::tuple<std::vector<std::int64_t>, std::int64_t, std::string>>{
             {{3, 5}, 1, "uint8"},
             {{64, 64}, 1, "uint8"},
             {{40, 50}, 4, "uint8"},
             {{100, 100}, 3, "uint8"},
             {{9, 11}, 3, "float32"}}) {
      FileSpec spec;
      spec.path = (dir_ / "img_0_of_1.npz").string();
      spec.sample_dims = dims;
      spec.samples = samples;
      spec.dtype = dtype;
      spec.compression = compression;
      test::WriteFile(NpzWriter(), spec, content, 1000);
      const Bytes size = std::filesystem::file_size(spec.path);
      SCOPED_TRACE(spec.path + " of " + std::to_string(size) +
                   " bytes, n = " + std::to_string(samples) +
                   (compression == config::Compression::kZip ? " deflated" : " stored"));

      env_.opens.clear();
      env_.reads.clear();
      auto reader = NpzReader().open(env_, spec, Direct(4096));
      EXPECT_TRUE(opened_once(spec.path, true));
      EXPECT_EQ(reader->open_bytes(), env_.bytes_since(0));
      if (size <= kDirectAlignment) {
        EXPECT_EQ(reader->open_bytes(), size);  // one read serves the whole directory walk
      }
      std::vector<std::byte> out(spec.sample_bytes());
      for (std::int64_t k = 0; k < samples; ++k) {
        const std::size_t first = env_.reads.size();
        const Bytes read = reader->read_sample(k, out);
        EXPECT_EQ(out, test::SampleLastBytes(content, spec, k)) << "sample " << k;
        EXPECT_EQ(read, env_.bytes_since(first));
        EXPECT_GT(read, 0u);
        expect_aligned_and_disjoint(spec.path, first);
        if (compression == config::Compression::kNone) {
          // x.npy's data starts at 183 in what numpy and our writer produce.
          const Bytes begin = 183;
          EXPECT_EQ(read,
                    Blocks(begin, begin + static_cast<Bytes>(samples) * spec.sample_bytes(), size));
        }
      }
    }
  }
}

TEST_F(DirectRead, IndexedBinaryReadsTheBlocksOfEachSampleAndTheIndexesNormally) {
  const auto content = test::RandomContent();
  FileSpec spec;
  spec.path = (dir_ / "img_0_of_1.indexed_binary").string();
  spec.sample_dims = {50, 100};  // 5000 bytes: samples straddle blocks
  spec.samples = 3;
  test::WriteFile(IndexedBinaryWriter(), spec, content);
  auto reader = IndexedBinaryReader().open(env_, spec, Direct());
  EXPECT_TRUE(opened_once(spec.path, true));
  EXPECT_TRUE(opened_once(spec.offsets_index(), false));
  EXPECT_TRUE(opened_once(spec.sizes_index(), false));
  EXPECT_EQ(reader->open_bytes(), 2u * 8 * 3);
  std::vector<std::byte> out(spec.sample_bytes());
  // [0, 5000) → [0, 8192); [5000, 10000) → [4096, 12288); [10000, 15000) → [8192, 15000).
  const Bytes expected[] = {8192, 8192, 15000 - 8192};
  for (const std::int64_t k : {2, 0, 1, 1}) {
    const std::size_t first = env_.reads.size();
    EXPECT_EQ(reader->read_sample(k, out), expected[k]) << "sample " << k;
    EXPECT_EQ(out, test::SampleFirstBytes(content, spec, k)) << "sample " << k;
    EXPECT_EQ(env_.bytes_since(first), expected[k]);
    expect_aligned_and_disjoint(spec.path, first);
  }
}

TEST_F(DirectRead, ParquetReadsTheBlocksOfTheRowsPagesWithTheSameBytes) {
  const auto content = test::RandomContent();
  FileSpec spec;
  spec.path = (dir_ / "img_0_of_1.parquet").string();
  spec.samples = 5;
  spec.parquet_columns = {{"big", "float32", 300000, true}, {"small", "int16", 9, true}};
  test::WriteFile(ParquetWriter(), spec, content);
  auto direct = ParquetReader().open(env_, spec, Direct());
  auto buffered = ParquetReader().open(storage::PosixEnv(), spec, {});
  EXPECT_TRUE(opened_once(spec.path, true));
  std::vector<std::byte> out(direct->sample_bytes());
  std::vector<std::byte> expected(direct->sample_bytes());
  for (const std::int64_t k : {4, 0, 2}) {
    const std::size_t first = env_.reads.size();
    const Bytes got = direct->read_sample(k, out);
    const Bytes pages = buffered->read_sample(k, expected);
    EXPECT_EQ(out, expected) << "sample " << k;
    EXPECT_EQ(out, test::SampleFirstBytes(content, spec, k)) << "sample " << k;
    EXPECT_EQ(env_.bytes_since(first), got);
    EXPECT_GE(got, pages);  // whole blocks around the two pages
    EXPECT_LT(got, pages + 4 * kDirectAlignment);
    expect_aligned_and_disjoint(spec.path, first);
  }
}

TEST(DirectReadErrors, RefusedODirectSaysHowToTurnItOff) {
  // procfs refuses O_DIRECT with EINVAL, as tmpfs did before Linux 6.6.
  FileSpec spec;
  spec.path = "/proc/self/status";
  spec.sample_dims = {4};
  for (const auto format :
       {config::Format::kNpy, config::Format::kNpz, config::Format::kIndexedBinary}) {
    dlbench::test::ExpectError(
        [&] { MakeReader(format)->open(storage::PosixEnv(), spec, Direct()); }, ExitCode::kIo,
        {"/proc/self/status", "O_DIRECT is not supported", "++workload.reader.odirect=False"});
  }
}

TEST(DirectReadErrors, AMissingFileGetsNoODirectHint) {
  FileSpec spec;
  spec.path = "/nonexistent-dlbench/img_0_of_1.npy";
  spec.sample_dims = {4};
  const std::string message =
      dlbench::test::ExpectError([&] { NpyReader().open(storage::PosixEnv(), spec, Direct()); },
                                 ExitCode::kIo, {spec.path, "No such file"});
  EXPECT_EQ(message.find("odirect"), std::string::npos) << message;
}

TEST(DirectReadErrors, FormatsWithoutAnODirectPathRefuseIt) {
  FileSpec spec;
  spec.path = "/nonexistent-dlbench/img_0_of_1";
  spec.sample_dims = {4};
  for (const auto& [format, name] : std::vector<std::pair<config::Format, std::string>>{
           {config::Format::kTfrecord, "tfrecord"},
           {config::Format::kHdf5, "hdf5"},
           {config::Format::kMmapIndexedBinary, "mmap_indexed_binary"},
           {config::Format::kSynthetic, "synthetic"}}) {
    EXPECT_EQ(dlbench::test::ExpectError(
                  [&] { MakeReader(format)->open(storage::PosixEnv(), spec, Direct()); },
                  ExitCode::kUsage),
              "reader.odirect: O_DIRECT reading is not available for " + name +
                  " (only npz, npy, indexed_binary, csv, jpeg, png and parquet)");
  }
}

// csv, jpeg and png read their whole file for every sample: the blocks covering it, once.
TEST_F(DirectRead, WholeFileFormatsReadTheirFileInBlocksForEverySample) {
  for (const auto& [format, name, dims] :
       std::vector<std::tuple<config::Format, std::string, std::vector<std::int64_t>>>{
           {config::Format::kCsv, "csv", {40, 70}},
           {config::Format::kJpeg, "jpeg", {200, 70}},
           {config::Format::kPng, "png", {200, 70}}}) {
    FileSpec spec;
    spec.path = (dir_ / ("img_0_of_1." + name)).string();
    spec.sample_dims = dims;
    test::WriteFile(*MakeWriter(format), spec, test::RandomContent());
    const Bytes size = test::ReadAll(spec.path).size();
    ASSERT_GT(size, 2 * kDirectAlignment) << name;
    auto plain = MakeReader(format)->open(env_, spec, {});
    std::vector<std::byte> expected(plain->sample_bytes());
    EXPECT_EQ(plain->read_sample(0, expected), size) << name;
    const std::size_t first = env_.reads.size();
    auto direct = MakeReader(format)->open(env_, spec, Direct());
    EXPECT_EQ(direct->open_bytes(), 0u) << name;
    std::vector<std::byte> out(direct->sample_bytes());
    for (int again = 0; again < 2; ++again) {
      EXPECT_EQ(direct->read_sample(0, out), Blocks(0, size, size)) << name;
      EXPECT_EQ(out, expected) << name;
    }
    expect_aligned_and_disjoint(spec.path, env_.reads.size() - 1);
    EXPECT_EQ(env_.reads.size() - first, 2u) << name << ": one read per sample";
    EXPECT_TRUE(std::any_of(env_.opens.begin(), env_.opens.end(), [&](const auto& o) {
      return o.path == spec.path && o.direct;
    })) << name;
  }
}

TEST_F(DirectRead, TruncatedDataIsStillReported) {
  FileSpec spec;
  spec.path = (dir_ / "img_0_of_1.npy").string();
  spec.sample_dims = {100, 70};
  spec.samples = 1;
  test::WriteFile(NpyWriter(), spec, test::RandomContent());
  const std::string bytes = test::ReadAll(spec.path);
  test::WriteAll(spec.path, bytes.substr(0, bytes.size() - 1));
  dlbench::test::ExpectError([&] { NpyReader().open(env_, spec, Direct()); }, ExitCode::kIo,
                             {"bad npy: truncated"});
}

}  // namespace
}  // namespace dlbench::formats
