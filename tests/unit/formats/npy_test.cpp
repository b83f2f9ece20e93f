#include <gtest/gtest.h>

#include <span>
#include <string>
#include <vector>

#include "format_files_fixture.h"
#include "format_test_support.h"
#include "formats/io/dtype.h"
#include "formats/numpy/npy_array_check.h"
#include "formats/numpy/npy_header.h"
#include "formats/numpy/npy_reader.h"
#include "formats/numpy/npy_writer.h"
#include "recording_env.h"
#include "support/expect_error.h"
#include "support/test_support.h"
#include "util/error.h"

namespace dlbench::formats {
namespace {

TEST(NpyHeader, MatchesNumpyByteForByte) {
  // np.save of zeros((3, 5, 2), uint8) with numpy 1.24.
  std::string expected = std::string("\x93NUMPY\x01\x00\x76\x00", 10) +
                         "{'descr': '|u1', 'fortran_order': False, 'shape': (3, 5, 2), }";
  expected.append(128 - 1 - expected.size(), ' ');
  expected += '\n';
  EXPECT_EQ(npy::Encode("|u1", {3, 5, 2}), expected);
  EXPECT_EQ(npy::Encode("<i8", {2}).size(), 128u);
  EXPECT_NE(npy::Encode("<i8", {2}).find("'shape': (2,), }"), std::string::npos);
  EXPECT_EQ(npy::Encode("|u1", {15865, 14125, 1}).size(), 128u);
}

TEST(NpyHeader, ParsesVersionsQuotesAndPadding) {
  std::string dict = "{\"descr\":\"<f4\",\"shape\":(4,3),\"fortran_order\":False}";
  std::string v2 = std::string("\x93NUMPY\x02\x00", 8);
  const std::size_t hlen = dict.size() + 1;
  for (int i = 0; i < 4; ++i) v2 += static_cast<char>((hlen >> (8 * i)) & 0xFF);
  v2 += dict + "\n";
  const npy::Header h = npy::Parse(v2, "t");
  EXPECT_EQ(h.descr, "<f4");
  EXPECT_EQ(h.shape, (std::vector<std::int64_t>{4, 3}));
  EXPECT_FALSE(h.fortran_order);
  EXPECT_EQ(h.data_offset, 12 + hlen);

  const npy::Header scalar = npy::Parse(npy::Encode("<f8", {}), "t");
  EXPECT_TRUE(scalar.shape.empty());
}

TEST(NpyHeader, RejectsGarbage) {
  EXPECT_THROW(npy::Parse("NOTNUMPY\x01\x00", "t"), Error);
  std::string bad = npy::Encode("|u1", {2});
  bad.replace(bad.find("False"), 5, "Maybe");
  dlbench::test::ExpectError([&] { npy::Parse(bad, "file.npy"); }, ExitCode::kIo,
                             {"file.npy", "fortran_order"});
}

// A 2.0/3.0 length field can claim up to 4 GiB; beyond the longest header dlbench reads it is a
// corrupt header, said before anything reads or inflates that much (npz: InflatedHeader...).
TEST(NpyHeader, RejectsALengthBeyondTheLongestHeader) {
  const auto probe = [](std::uint32_t hlen) {
    std::string p = "\x93NUMPY\x02";
    p += '\0';
    for (int i = 0; i < 4; ++i) p += static_cast<char>(hlen >> (8 * i) & 0xff);
    return p;
  };
  EXPECT_EQ(npy::HeaderLength(probe(npy::kMaxHeaderBytes - 12), "t"), npy::kMaxHeaderBytes);
  dlbench::test::ExpectError([&] { npy::HeaderLength(probe(npy::kMaxHeaderBytes - 11), "f.npy"); },
                             ExitCode::kIo, {"f.npy", "length field says 1048577 bytes"});
  dlbench::test::ExpectError([&] { npy::HeaderLength(probe(0xFFFFFFFFu), "f.npy"); }, ExitCode::kIo,
                             {"f.npy", "length field says 4294967307 bytes"});
}

// A shape of more dimensions than numpy allows is a corrupt header, said in a short message: a
// header of 1 MiB could list half a million, all printed in the shape-mismatch error before.
TEST(NpyHeader, RejectsAShapeOfMoreDimensionsThanNumpyAllows) {
  const std::vector<std::int64_t> most(npy::kMaxDims, 1);
  EXPECT_EQ(npy::Parse(npy::Encode("|u1", most), "t").shape, most);
  std::vector<std::int64_t> many(50000, 1);
  const std::string message = dlbench::test::ExpectError(
      [&] { npy::Parse(npy::Encode("|u1", many), "f.npy"); }, ExitCode::kIo,
      {"read f.npy: bad npy header: its shape has more than 64 dimensions, numpy's limit"});
  EXPECT_LT(message.size(), 200u) << message.substr(0, 300);
}

class NpyFiles : public test::FormatFiles<NpyReader> {
 protected:
  NpyFiles() : FormatFiles("img_0_of_1.npy", 3) {}
};

TEST_F(NpyFiles, RoundTripsContiguousAndStridedSamples) {
  const auto content = test::RandomContent();
  for (const auto& [dims, samples, dtype] :
       std::vector<std::tuple<std::vector<std::int64_t>, std::int64_t, std::string>>{
           {{3, 5}, 1, "uint8"},
           {{3, 5}, 2, "uint8"},
           {{17, 9}, 5, "float32"},
           {{100, 70}, 3, "uint16"},
           {{4, 4, 4}, 7, "float64"}}) {
    const FileSpec spec = make_spec(dims, samples, dtype);
    const WriteResult written = test::WriteFile(NpyWriter(), spec, content);
    EXPECT_EQ(written.data_bytes, NpyWriter().file_size(spec));
    EXPECT_EQ(written.data_bytes, 128 + static_cast<Bytes>(samples) * spec.sample_bytes());
    FileReadOptions options;
    options.transfer_size = 1000;  // not a multiple of the element group
    auto reader = NpyReader().open(storage::PosixEnv(), spec, options);
    EXPECT_EQ(reader->open_bytes(), 128u);
    std::vector<std::byte> out(spec.sample_bytes());
    for (std::int64_t k = samples - 1; k >= 0; --k) {
      const Bytes read = reader->read_sample(k, out);
      EXPECT_EQ(out, test::SampleLastBytes(content, spec, k)) << "sample " << k;
      // n = 1 reads the sample; n > 1 reads the whole array.
      EXPECT_EQ(read, static_cast<Bytes>(samples) * spec.sample_bytes());
    }
  }
}

// ExpectedArrayOf keeps the last spec's header and sizes per thread: whatever specs alternate on
// a thread (dtype, shape, sample count, parquet columns that decide sample_bytes), each answer is
// the spec's own.
TEST(ExpectedArray, EachSpecGetsItsOwnHeaderAndSizes) {
  FileSpec a;
  a.sample_dims = {16, 8};
  a.dtype = "uint8";
  FileSpec b = a;
  b.dtype = "float32";
  FileSpec c = a;
  c.samples = 3;
  FileSpec d = a;
  d.parquet_columns = {config::ParquetColumn{"x", "float64", 5, true}};
  for (int round = 0; round < 2; ++round) {
    for (const FileSpec* spec : {&a, &b, &a, &c, &d, &d, &a}) {
      const ExpectedArray& array = ExpectedArrayOf(*spec);
      EXPECT_EQ(array.sample_bytes, spec->sample_bytes());
      EXPECT_EQ(array.itemsize, spec->itemsize());
      EXPECT_EQ(array.header, npy::Encode(LookupDType(spec->dtype).descr, SampleLastShape(*spec)));
    }
  }
  EXPECT_EQ(ExpectedArrayOf(d).sample_bytes, 40u);
  EXPECT_EQ(ExpectedArrayOf(b).sample_bytes, 512u);
}

// The header the writer puts there for the spec is fetched in one read and needs no parsing; any
// other valid header (here the same dict in another key order) is parsed and read as well. A file
// of one small sample comes whole with that read; with more samples the header alone does.
TEST_F(NpyFiles, TheUsualHeaderTakesOneReadAndAnyOtherIsParsed) {
  const auto content = test::RandomContent();
  for (const std::int64_t samples : {1, 3}) {
    const FileSpec spec = make_spec({16, 8}, samples, "uint8");
    test::WriteFile(NpyWriter(), spec, content);
    const std::string header = ExpectedArrayHeader(spec);
    ASSERT_EQ(header.size(), 128u);
    std::string reordered = header;
    const std::string dict = "{'descr': '|u1', 'fortran_order': False, ";
    ASSERT_EQ(reordered.find(dict), 10u);
    reordered.replace(10, dict.size(), "{'fortran_order': False, 'descr': '|u1', ");
    const std::string bytes = test::ReadAll(spec.path);
    const Bytes first = samples == 1 ? header.size() + spec.sample_bytes() : header.size();
    for (const std::string& start : {header, reordered}) {
      test::WriteAll(spec.path, start + bytes.substr(header.size()));
      test::RecordingEnv env(storage::PosixEnv());
      auto reader = NpyReader().open(env, spec, {});
      ASSERT_EQ(env.reads.size(), 1u);
      EXPECT_EQ(env.reads[0].offset, 0u);
      EXPECT_EQ(env.reads[0].length, first);
      EXPECT_EQ(reader->open_bytes(), header.size());
      std::vector<std::byte> out(spec.sample_bytes());
      for (int again = 0; again < 2; ++again) {  // the second read of the sample goes to storage
        EXPECT_EQ(reader->read_sample(0, out), samples * spec.sample_bytes());
        EXPECT_EQ(env.reads.size(), samples == 1 ? 1u + again : 2u + again);
        EXPECT_EQ(out, test::SampleLastBytes(content, spec, 0));
      }
    }
  }
}

// A file of one small sample read into the caller's buffer (FileReadOptions::sample_into): the
// header goes into the headroom before it, the sample straight into it, in the one read; then
// read_sample(0, that buffer) copies nothing and reads nothing. Without enough headroom, with
// another header or with a short file, the reader reads as without a landing: the same bytes, the
// same reads, the same truncation error.
TEST_F(NpyFiles, AOneSampleFileReadsItsSampleStraightIntoTheCallersBuffer) {
  const auto content = test::RandomContent();
  const FileSpec spec = make_spec({16, 8}, 1, "uint8");
  test::WriteFile(NpyWriter(), spec, content);
  const std::vector<std::byte> sample = test::SampleLastBytes(content, spec, 0);
  const std::string header = ExpectedArrayHeader(spec);
  const std::string bytes = test::ReadAll(spec.path);
  constexpr std::byte kUntouched{0xEE};
  for (const Bytes headroom : {Bytes{256}, Bytes{128}, Bytes{127}}) {
    std::vector<std::byte> memory(256 + spec.sample_bytes(), kUntouched);
    const std::span<std::byte> into(memory.data() + 256, spec.sample_bytes());
    FileReadOptions options;
    options.sample_into = into;
    options.sample_into_headroom = headroom;
    test::RecordingEnv env(storage::PosixEnv());
    auto reader = NpyReader().open(env, spec, options);
    ASSERT_EQ(env.reads.size(), 1u);
    EXPECT_EQ(env.reads[0].length, header.size() + spec.sample_bytes());
    EXPECT_EQ(reader->open_bytes(), header.size());
    const bool landed = headroom >= header.size();
    EXPECT_EQ(std::vector<std::byte>(into.begin(), into.end()) == sample, landed) << headroom;
    if (!landed) {
      EXPECT_EQ(into[0], kUntouched);
    }
    EXPECT_EQ(reader->read_sample(0, into), spec.sample_bytes());
    EXPECT_EQ(env.reads.size(), 1u);
    EXPECT_EQ(std::vector<std::byte>(into.begin(), into.end()), sample) << headroom;
    // Asked again (or into another buffer), the sample comes from storage.
    std::vector<std::byte> other(spec.sample_bytes());
    EXPECT_EQ(reader->read_sample(0, other), spec.sample_bytes());
    EXPECT_EQ(env.reads.size(), 2u);
    EXPECT_EQ(other, sample);
  }
  // A buffer larger than the sample: the sample lands at its start.
  {
    std::vector<std::byte> memory(256 + spec.sample_bytes() + 64);
    FileReadOptions options;
    options.sample_into = std::span(memory).subspan(256);
    options.sample_into_headroom = 256;
    test::RecordingEnv env(storage::PosixEnv());
    auto reader = NpyReader().open(env, spec, options);
    const std::span<std::byte> out = options.sample_into.first(spec.sample_bytes());
    EXPECT_EQ(std::vector<std::byte>(out.begin(), out.end()), sample);
    EXPECT_EQ(reader->read_sample(0, out), spec.sample_bytes());
    EXPECT_EQ(env.reads.size(), 1u);
    EXPECT_EQ(std::vector<std::byte>(out.begin(), out.end()), sample);
  }
  // Landed, but delivered into another buffer: copied there.
  {
    std::vector<std::byte> memory(256 + spec.sample_bytes());
    FileReadOptions options;
    options.sample_into = std::span(memory).subspan(256);
    options.sample_into_headroom = 256;
    auto reader = NpyReader().open(storage::PosixEnv(), spec, options);
    std::vector<std::byte> other(spec.sample_bytes());
    EXPECT_EQ(reader->read_sample(0, other), spec.sample_bytes());
    EXPECT_EQ(other, sample);
  }
  // Another valid header (the dict's keys in another order): parsed, as without a landing.
  std::string reordered = header;
  reordered.replace(10, 41, "{'fortran_order': False, 'descr': '|u1', ");
  test::WriteAll(spec.path, reordered + bytes.substr(header.size()));
  std::vector<std::byte> memory(256 + spec.sample_bytes());
  FileReadOptions options;
  options.sample_into = std::span(memory).subspan(256);
  options.sample_into_headroom = 256;
  test::RecordingEnv env(storage::PosixEnv());
  auto reader = NpyReader().open(env, spec, options);
  EXPECT_EQ(env.reads.size(), 1u);
  EXPECT_EQ(reader->read_sample(0, options.sample_into), spec.sample_bytes());
  EXPECT_EQ(env.reads.size(), 1u);  // from the thread's buffer
  EXPECT_EQ(std::vector<std::byte>(memory.begin() + 256, memory.end()), sample);
  // A short file: the truncation error of a file read without a landing.
  test::WriteAll(spec.path, bytes.substr(0, bytes.size() - 1));
  auto short_reader = NpyReader().open(storage::PosixEnv(), spec, options);
  dlbench::test::ExpectError([&] { short_reader->read_sample(0, options.sample_into); },
                             ExitCode::kIo, {"bad npy: truncated", spec.path});
}

// A version 3 header whose length field says 512 KiB, in a file of a few hundred bytes, is
// truncated: found before reading (the reader allocated and asked for the length first; with a
// length near 4 GiB the fuzzer's input timed out). Lengths beyond npy::kMaxHeaderBytes are
// refused by HeaderLength itself (NpyHeader.RejectsALengthBeyondTheLongestHeader).
TEST_F(NpyFiles, HeaderLongerThanTheFileIsRejectedBeforeReadingIt) {
  const FileSpec spec = make_spec({6, 6}, 2, "uint8");
  test::WriteFile(NpyWriter(), spec, test::RandomContent());
  std::string bytes = test::ReadAll(spec.path);
  bytes.replace(6, 4, std::string("\x03\x00\x00\x00", 4));
  bytes.insert(10, std::string("\x08\x00", 2));  // HLEN (4 bytes in v3) = 0x00080000
  test::WriteAll(spec.path, bytes);
  test::RecordingEnv env(storage::PosixEnv());
  dlbench::test::ExpectError(
      [&] { NpyReader().open(env, spec, {}); }, ExitCode::kIo,
      {"bad npy: truncated: header needs 524300 bytes, file has", spec.path});
  for (const auto& read : env.reads) EXPECT_LE(read.length, bytes.size());
}

// Readers of one-sample files opened one after the other on a thread (the memory read type keeps
// several open): each still reads its own sample, from storage once another open (even one that
// buffered no sample) reused the thread's buffer.
TEST_F(NpyFiles, InterleavedReadersReadTheirOwnSamples) {
  const auto content = test::RandomContent();
  FileSpec a = make_spec({16, 8}, 1, "uint8");
  test::WriteFile(NpyWriter(), a, content);
  FileSpec b = a;
  b.path += ".b";
  b.file_index = a.file_index + 1;
  test::WriteFile(NpyWriter(), b, content);
  // A third file, one byte short: its open fills the buffer but leaves no sample there.
  FileSpec c = a;
  c.path += ".c";
  c.file_index = a.file_index + 2;
  test::WriteFile(NpyWriter(), c, content);
  const std::string bytes = test::ReadAll(c.path);
  test::WriteAll(c.path, bytes.substr(0, bytes.size() - 1));
  auto first = NpyReader().open(storage::PosixEnv(), a, {});
  auto second = NpyReader().open(storage::PosixEnv(), b, {});
  auto third = NpyReader().open(storage::PosixEnv(), c, {});
  std::vector<std::byte> out(a.sample_bytes());
  EXPECT_EQ(second->read_sample(0, out), a.sample_bytes());
  EXPECT_EQ(out, test::SampleLastBytes(content, b, 0));
  EXPECT_EQ(first->read_sample(0, out), a.sample_bytes());
  EXPECT_EQ(out, test::SampleLastBytes(content, a, 0));
  EXPECT_NE(test::SampleLastBytes(content, a, 0), test::SampleLastBytes(content, b, 0));
}

TEST_F(NpyFiles, RejectsMismatchesAndTruncation) {
  const auto content = test::RandomContent();
  const FileSpec spec = make_spec({6, 6}, 2, "uint8");
  test::WriteFile(NpyWriter(), spec, content);
  EXPECT_NE(open_error(make_spec({6, 7}, 2, "uint8")).find("shape (6, 6, 2), expected (6, 7, 2)"),
            std::string::npos);
  EXPECT_NE(open_error(make_spec({6, 6}, 2, "int16")).find("dtype '|u1', expected '<i2'"),
            std::string::npos);

  const std::string bytes = test::ReadAll(spec.path);
  // Found by the first read (open does not ask the file's size, a system call per sample).
  test::WriteAll(spec.path, bytes.substr(0, bytes.size() - 1));
  const std::string error = read_error(spec);
  EXPECT_NE(error.find("bad npy: truncated"), std::string::npos) << error;
  EXPECT_NE(error.find(spec.path), std::string::npos) << error;
  // A file of one sample, which the first read fetches whole: the same error.
  const FileSpec one = make_spec({6, 6}, 1, "uint8");
  test::WriteFile(NpyWriter(), one, content);
  const std::string whole = test::ReadAll(one.path);
  test::WriteAll(one.path, whole.substr(0, whole.size() - 1));
  EXPECT_NE(read_error(one).find("bad npy: truncated"), std::string::npos) << read_error(one);

  std::string fortran = bytes;
  fortran.replace(fortran.find("False"), 5, "True ");
  test::WriteAll(spec.path, fortran);
  EXPECT_NE(open_error(spec).find("fortran_order True"), std::string::npos);

  test::WriteAll(spec.path, "short");
  EXPECT_NE(open_error(spec).find("magic"), std::string::npos);
}

}  // namespace
}  // namespace dlbench::formats
