#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "format_files_fixture.h"
#include "format_test_support.h"
#include "formats/io/little_endian.h"
#include "formats/numpy/npz_reader.h"
#include "formats/numpy/npz_writer.h"
#include "recording_env.h"
#include "support/expect_error.h"
#include "support/test_support.h"
#include "util/error.h"

namespace dlbench::formats {
namespace {

class NpzFiles : public test::FormatFiles<NpzReader> {
 protected:
  NpzFiles() : FormatFiles("img_0_of_1.npz", 5) {}
};

TEST_F(NpzFiles, MatchesNumpySavezByteForByte) {
  const std::string reference = (dir_ / "numpy.npz").string();
  const std::string command = "/usr/bin/python3 -c \"import numpy as np; np.savez('" + reference +
                              "', x=np.zeros((3, 5, 2), np.uint8), y=np.zeros(2, np.int64))\"";
  ASSERT_EQ(std::system(command.c_str()), 0) << command;
  FileSpec spec = make_spec({3, 5}, 2, "uint8");
  const dataset::ContentGenerator zeros(config::ContentKind::kZeros, 1.0, 0);
  const WriteResult written = test::WriteFile(NpzWriter(), spec, zeros, 64);
  EXPECT_EQ(written.data_bytes, 536u);
  EXPECT_EQ(NpzWriter().file_size(spec), 536u);
  const std::string ours = test::ReadAll(spec.path);
  EXPECT_EQ(ours, test::ReadAll(reference));
  EXPECT_EQ(GetLe(ours.data() + 14, 4), 0xEE7B121Eu);        // x.npy CRC-32
  EXPECT_EQ(GetLe(ours.data() + 213 + 14, 4), 0x05516AE0u);  // y.npy CRC-32
}

TEST_F(NpzFiles, RoundTripsStoredAndDeflated) {
  const auto content = test::RandomContent();
  for (const auto compression : {config::Compression::kNone, config::Compression::kZip}) {
    for (const auto& [dims, samples, dtype] :
         std::vector<std::tuple<std::vector<std::int64_t>, std::int64_t, std::string>>{
             {{3, 5}, 1, "uint8"}, {{40, 50}, 4, "uint8"}, {{9, 11}, 3, "float32"}}) {
      FileSpec spec = make_spec(dims, samples, dtype);
      spec.compression = compression;
      const WriteResult written = test::WriteFile(NpzWriter(), spec, content, 1000);
      EXPECT_EQ(written.data_bytes, std::filesystem::file_size(spec.path));
      if (compression == config::Compression::kNone) {
        EXPECT_EQ(written.data_bytes, NpzWriter().file_size(spec));
        EXPECT_EQ(written.data_bytes,
                  490 + static_cast<Bytes>(samples) * (spec.sample_bytes() + 8));
      } else {
        EXPECT_THROW(NpzWriter().file_size(spec), Error);
      }
      FileReadOptions options;
      options.transfer_size = 4096;
      auto reader = NpzReader().open(storage::PosixEnv(), spec, options);
      EXPECT_GT(reader->open_bytes(), 0u);
      std::vector<std::byte> out(spec.sample_bytes());
      for (std::int64_t k = 0; k < samples; ++k) {
        const Bytes read = reader->read_sample(k, out);
        EXPECT_EQ(out, test::SampleLastBytes(content, spec, k)) << "sample " << k;
        EXPECT_GT(read, 0u);
      }
    }
  }
}

// An open reads the 22-byte end record, not the 64 KiB a comment could take (numpy writes no
// comment); an archive with a comment is still found by the longer search.
TEST_F(NpzFiles, OpenReadsTheEndRecordOnlyUnlessThereIsAComment) {
  const FileSpec spec = make_spec({64, 64}, 1, "uint8");
  test::WriteFile(NpzWriter(), spec, test::RandomContent());
  const Bytes size = std::filesystem::file_size(spec.path);
  {
    auto reader = NpzReader().open(storage::PosixEnv(), spec, {});
    // End record 22 + zip64 locator 20 + directory + local header + x.npy header: far below
    // the file, which the old 64 KiB tail search read whole.
    EXPECT_LT(reader->open_bytes(), 600u);
    EXPECT_LT(reader->open_bytes(), size - spec.sample_bytes());
  }
  const std::string command = "/usr/bin/python3 -c \"import zipfile; z = zipfile.ZipFile('" +
                              spec.path + "', 'a'); z.comment = b'made by a test'; z.close()\"";
  ASSERT_EQ(std::system(command.c_str()), 0) << command;
  auto reader = NpzReader().open(storage::PosixEnv(), spec, {});
  std::vector<std::byte> out(spec.sample_bytes());
  EXPECT_EQ(reader->read_sample(0, out), spec.sample_bytes());
  EXPECT_EQ(out, test::SampleLastBytes(test::RandomContent(), spec, 0));
}

// np.savez's layout for the spec says where the records are: the central directory with the end
// records, then x.npy's local header with its npy header, each fetched in one read.
TEST_F(NpzFiles, OpenReadsTheDirectoryAndTheHeadersInOneReadEach) {
  const FileSpec spec = make_spec({64, 64}, 1, "uint8");
  test::WriteFile(NpzWriter(), spec, test::RandomContent());
  const Bytes size = std::filesystem::file_size(spec.path);
  const NpzRegions regions = StoredNpzRegions(spec);
  test::RecordingEnv env(storage::PosixEnv());
  auto reader = NpzReader().open(env, spec, {});
  ASSERT_EQ(env.reads.size(), 2u);
  EXPECT_EQ(env.reads[0].offset, size - regions.tail);
  EXPECT_EQ(env.reads[0].got, regions.tail);
  EXPECT_EQ(env.reads[1].offset, 0u);
  EXPECT_EQ(env.reads[1].got, regions.head);
  EXPECT_EQ(reader->open_bytes(), regions.tail + regions.head);
  std::vector<std::byte> out(spec.sample_bytes());
  EXPECT_EQ(reader->read_sample(0, out), spec.sample_bytes());
  EXPECT_EQ(env.reads.size(), 3u);
  EXPECT_EQ(out, test::SampleLastBytes(test::RandomContent(), spec, 0));
}

TEST_F(NpzFiles, BadDirectoryAndMismatchesAreReported) {
  const FileSpec spec = make_spec({8, 8}, 2, "uint8");
  test::WriteFile(NpzWriter(), spec, test::RandomContent());
  const std::string bytes = test::ReadAll(spec.path);

  test::WriteAll(spec.path, bytes.substr(0, bytes.size() - 10));
  std::string error = open_error(spec);
  EXPECT_NE(error.find("bad zip directory"), std::string::npos) << error;
  EXPECT_NE(error.find(spec.path), std::string::npos) << error;

  std::string renamed = bytes;
  for (std::size_t p = 0; (p = renamed.find("x.npy", p)) != std::string::npos; ++p)
    renamed[p] = 'z';
  test::WriteAll(spec.path, renamed);
  error = open_error(spec);
  EXPECT_NE(error.find("no member 'x.npy'"), std::string::npos) << error;

  std::string cut = bytes;
  cut.erase(100, 20);  // directory offsets now point past their records
  test::WriteAll(spec.path, cut);
  EXPECT_NE(open_error(spec).find("npz"), std::string::npos);

  test::WriteAll(spec.path, bytes);
  error = open_error(make_spec({8, 9}, 2, "uint8"));
  EXPECT_NE(error.find("x.npy: bad npy: shape (8, 8, 2), expected (8, 9, 2)"), std::string::npos)
      << error;
}

// A deflated x.npy whose header's length field claims 64 MiB, followed by 64 MiB of spaces (64 KB
// compressed): refused from the length field, without inflating the claimed header into memory
// (the reader appended inflated bytes until it held the length said, up to 4 GiB).
TEST_F(NpzFiles, InflatedHeaderLongerThanTheLongestHeaderIsRejectedWithoutInflatingIt) {
  FileSpec spec = make_spec({8, 8}, 2, "uint8");
  spec.compression = config::Compression::kZip;
  const std::string command =
      "/usr/bin/python3 -c \"import zipfile; z = zipfile.ZipFile('" + spec.path +
      "', 'w', zipfile.ZIP_DEFLATED); f = z.open('x.npy', 'w', force_zip64=True); "
      "f.write(b'\\x93NUMPY\\x02\\x00\\x00\\x00\\x00\\x04'); "
      "[f.write(b' ' * (1 << 20)) for i in range(64)]; f.close(); z.close()\"";
  ASSERT_EQ(std::system(command.c_str()), 0) << command;
  test::RecordingEnv env(storage::PosixEnv());
  FileReadOptions options;
  options.transfer_size = 4096;
  dlbench::test::ExpectError([&] { NpzReader().open(env, spec, options); }, ExitCode::kIo,
                             {spec.path, "length field says 67108876 bytes"});
  Bytes read = 0;
  for (const auto& r : env.reads) read += r.got;
  EXPECT_LT(read, 16384u);
}

}  // namespace
}  // namespace dlbench::formats
