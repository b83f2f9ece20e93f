// Deflated HDF5 chunks read with a bound (formats/hdf5/hdf5_chunks.h): files h5py writes with
// chunks that split samples, hold several, or reach past the dataset, with and without shuffle,
// read back exactly; hostile chunks (one inflating to 64 MiB, one short, a cut or corrupt stream,
// chunks of 256 MiB over a dataset of 108 bytes) are an I/O error naming the file, dataset and
// chunk — before hardening3 HDF5 inflated the 1 GiB chunk (2 GiB allocated, 11 s) and read it, and
// the short one, as good samples. Shuffle, gzip and fletcher32 in any order read back exactly; a
// bomb under a valid Fletcher-32 checksum or a changed byte fail naming the chunk; szip, nbit,
// scaleoffset and plugins are refused at open (hardening4: before, HDF5 decoded them unbounded).
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "format_files_fixture.h"
#include "format_test_support.h"
#include "formats/hdf5/hdf5_reader.h"
#include "formats/hdf5/hdf5_writer.h"
#include "support/expect_error.h"
#include "support/test_support.h"
#include "util/error.h"

namespace dlbench::formats {
namespace {

class Hdf5Chunks : public test::FormatFiles<Hdf5Reader> {
 protected:
  Hdf5Chunks() : FormatFiles("img_0_of_1.hdf5", 3) {}

  static void Make(const std::string& path, const std::string& arguments) {
    const std::string command =
        "/usr/bin/python3 " +
        (dlbench::test::SourceDir() / "tests/unit/formats/hdf5_chunk_files.py").string() + " " +
        path + " " + arguments;
    ASSERT_EQ(std::system(command.c_str()), 0) << command;
  }

  // A dlbench gzip file of 3 samples of 6 x 6 uint8, chunk (1, 0, 0) then made hostile.
  FileSpec hostile(const std::string& mode) {
    FileSpec spec = make_spec({6, 6}, 3);
    spec.compression = config::Compression::kGzip;
    spec.chunk_dims = {1, 6, 6};
    test::WriteFile(Hdf5Writer(), spec, test::RandomContent());
    Make(spec.path, mode);
    return spec;
  }
};

// One file, one python run: records_<j> of the same values, each with its own chunks and shuffle.
TEST_F(Hdf5Chunks, SamplesOfEveryChunkLayoutReadBackExactly) {
  const std::vector<std::string> layouts = {"1,7,11", "2,3,5",  "5,7,11",
                                            "4,2,11", "8,8,16", "1,1,1"};
  FileSpec spec = make_spec({7, 11}, 5, "uint16");
  spec.num_dset_per_record = static_cast<int>(2 * layouts.size());
  std::string arguments = "layouts";
  for (const std::string& chunks : layouts) arguments += " " + chunks + ":0 " + chunks + ":1";
  Make(spec.path, arguments);
  auto reader = Hdf5Reader().open(storage::PosixEnv(), spec, {});
  std::vector<std::byte> out(reader->sample_bytes());
  for (std::int64_t k : {4, 0, 2, 1, 3}) {
    reader->read_sample(k, out);
    std::vector<std::uint16_t> expected(7 * 11);
    for (std::size_t i = 0; i < expected.size(); ++i) {
      expected[i] = static_cast<std::uint16_t>(static_cast<std::size_t>(k) * 77 + i);
    }
    for (std::size_t j = 0; j < 2 * layouts.size(); ++j) {
      EXPECT_EQ(std::memcmp(out.data() + j * 154, expected.data(), 154), 0)
          << "chunks " << layouts[j / 2] << " shuffle " << j % 2 << " sample " << k;
    }
  }
}

TEST_F(Hdf5Chunks, HostileChunksAreIoErrorsNamingTheChunk) {
  const std::string chunk = "dataset 'records_0', chunk at (1, 0, 0): ";
  for (const auto& [mode, message] : std::vector<std::pair<std::string, std::string>>{
           {"bomb", "inflates to more than its 36 bytes (a damaged or hostile chunk)"},
           {"short", "inflates to 30 bytes, not its 36 (a damaged chunk)"},
           {"cut", "its deflate stream ends early (cut short after"},
           {"corrupt", "corrupt deflate stream, inflate says: "}}) {
    const FileSpec spec = hostile(mode);
    auto reader = Hdf5Reader().open(storage::PosixEnv(), spec, {});
    std::vector<std::byte> out(reader->sample_bytes());
    reader->read_sample(0, out);  // the other chunks stay readable
    dlbench::test::ExpectError([&] { reader->read_sample(1, out); }, ExitCode::kIo,
                               {"read " + spec.path + " sample 1: bad hdf5: " + chunk + message});
    reader->read_sample(2, out);
  }
}

// Shuffle, gzip and fletcher32 in every order h5py's low-level API writes them: read back exactly
// by ChunkReader (before, every pipeline but shuffle-then-gzip went to H5Dread, unbounded).
TEST_F(Hdf5Chunks, ShuffleGzipAndFletcher32InAnyOrderReadBackExactly) {
  const std::vector<std::string> orders = {"f", "s", "sf", "sgf", "fsg", "gf", "fg", "gsf"};
  FileSpec spec = make_spec({7, 11}, 5, "uint16");
  spec.num_dset_per_record = static_cast<int>(orders.size());
  std::string arguments = "pipelines";
  for (const std::string& order : orders) arguments += " " + order;
  Make(spec.path, arguments);
  auto reader = Hdf5Reader().open(storage::PosixEnv(), spec, {});
  std::vector<std::byte> out(reader->sample_bytes());
  for (std::int64_t k : {4, 0, 2, 1, 3}) {
    reader->read_sample(k, out);
    std::vector<std::uint16_t> expected(7 * 11);
    for (std::size_t i = 0; i < expected.size(); ++i) {
      expected[i] = static_cast<std::uint16_t>(static_cast<std::size_t>(k) * 77 + i);
    }
    for (std::size_t j = 0; j < orders.size(); ++j) {
      EXPECT_EQ(std::memcmp(out.data() + j * 154, expected.data(), 154), 0)
          << "filters " << orders[j] << " sample " << k;
    }
  }
}

// gzip then fletcher32 (h5py's order for compression="gzip", fletcher32=True): a bomb under a
// valid checksum was inflated by HDF5 (64 MiB and more allocated) and its sample read as good;
// a changed byte fails the checksum.
TEST_F(Hdf5Chunks, HostileChunksUnderFletcher32AreIoErrorsNamingTheChunk) {
  const std::string chunk = "dataset 'records_0', chunk at (1, 0, 0): ";
  for (const auto& [mode, message] : std::vector<std::pair<std::string, std::string>>{
           {"fletcher-bomb", "inflates to more than its 36 bytes (a damaged or hostile chunk)"},
           {"fletcher-damaged", "fails its Fletcher-32 checksum (a damaged chunk)"}}) {
    const FileSpec spec = hostile(mode);
    auto reader = Hdf5Reader().open(storage::PosixEnv(), spec, {});
    std::vector<std::byte> out(reader->sample_bytes());
    reader->read_sample(0, out);
    dlbench::test::ExpectError([&] { reader->read_sample(1, out); }, ExitCode::kIo,
                               {"read " + spec.path + " sample 1: bad hdf5: " + chunk + message});
    reader->read_sample(2, out);
  }
}

// Filters whose HDF5 decoder allocates what the chunk or the filter's parameters say (szip: a
// size stored in the chunk; nbit, scaleoffset: an element count in the file's pipeline message),
// and plugins: refused at open, naming the file, dataset and filter. Before, they were read by
// H5Dread without a bound.
TEST_F(Hdf5Chunks, FiltersWithoutABoundAreRefusedAtOpen) {
  for (const auto& [mode, filter] :
       std::vector<std::pair<std::string, std::string>>{{"szip", "szip (id 4)"},
                                                        {"nbit", "nbit (id 5)"},
                                                        {"scaleoffset", "scaleoffset (id 6)"},
                                                        {"lzf", "with id 32000 (a plugin)"}}) {
    const FileSpec spec = hostile(mode);
    const std::string message = open_error(spec);
    EXPECT_NE(
        message.find("read " + spec.path + ": bad hdf5: dataset 'records_0' is filtered with " +
                     filter + ", which dlbench does not read"),
        std::string::npos)
        << message;
  }
}

// A compact dataset with a filter pipeline (shuffle, fletcher32), which HDF5 never writes: the
// fuzzer's input (tests/fuzz/corpus/hdf5) made H5Dread copy from a null pointer, a segfault.
TEST_F(Hdf5Chunks, FiltersOnADatasetThatIsNotChunkedAreRefusedAtOpen) {
  FileSpec spec = make_spec({6, 6}, 3);
  std::filesystem::copy_file(
      dlbench::test::SourceDir() / "tests/fuzz/corpus/hdf5/crash-filters-on-a-compact-dataset",
      spec.path);
  EXPECT_NE(open_error(spec).find("read " + spec.path +
                                  ": bad hdf5: dataset 'records_0' has filters but is not chunked"),
            std::string::npos)
      << open_error(spec);
}

TEST_F(Hdf5Chunks, FilteredChunksFarLargerThanTheDatasetAreRefusedAtOpen) {
  const FileSpec spec = hostile("huge");
  EXPECT_NE(
      open_error(spec).find("dataset 'records_0' has filtered chunks of 1 x 16384 x 16384 elements "
                            "(268435456 bytes), more than the dataset (108 bytes) and 64 MiB"),
      std::string::npos)
      << open_error(spec);
}

}  // namespace
}  // namespace dlbench::formats
