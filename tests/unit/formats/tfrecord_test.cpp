#include <gtest/gtest.h>

#include <cstring>
#include <source_location>
#include <string>
#include <vector>

#include "format_test_support.h"
#include "formats/tfrecord/tfrecord_example.h"
#include "formats/tfrecord/tfrecord_reader.h"
#include "formats/tfrecord/tfrecord_writer.h"
#include "support/expect_error.h"
#include "support/test_support.h"
#include "util/crc32c.h"
#include "util/error.h"

namespace dlbench::formats {
namespace {

using test::RandomContent;

std::string Hex(const void* data, std::size_t n) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  for (std::size_t i = 0; i < n; ++i) {
    const auto b = static_cast<const unsigned char*>(data)[i];
    s += digits[b >> 4];
    s += digits[b & 15];
  }
  return s;
}

std::string Raw(std::initializer_list<int> values) {
  std::string s;
  for (int v : values) s += static_cast<char>(v);
  return s;
}

std::string Le(std::uint64_t v, int n) {
  std::string s;
  for (int i = 0; i < n; ++i) s += static_cast<char>((v >> (8 * i)) & 0xFF);
  return s;
}

// A framed record around an arbitrary payload, as a TFRecord writer other than ours would emit.
std::string Frame(const std::string& payload) {
  const std::string length = Le(payload.size(), 8);
  return length + Le(crc32c::Mask(crc32c::Value(length.data(), 8)), 4) + payload +
         Le(crc32c::Mask(crc32c::Value(payload.data(), payload.size())), 4);
}

std::string Varint(std::uint64_t v) {
  std::byte b[10];
  const std::size_t n = tfrecord::EncodeVarint(v, b);
  return {reinterpret_cast<const char*>(b), n};
}
std::string Field(int tag, const std::string& body) {
  return static_cast<char>(tag) + Varint(body.size()) + body;
}

TEST(TfrecordExample, MatchesTestVectorByteForByte) {
  const tfrecord::ExampleLayout layout(4);
  std::string example(reinterpret_cast<const char*>(layout.prefix().data()),
                      layout.prefix().size());
  example += Raw({0, 1, 2, 3});
  example.append(reinterpret_cast<const char*>(layout.suffix().data()), layout.suffix().size());
  EXPECT_EQ(Hex(example.data(), example.size()),
            "0a220a110a05696d61676512080a060a04000102030a0d0a0473697a6512051a030a0104");
  EXPECT_EQ(layout.payload_bytes(), 36u);
  EXPECT_EQ(layout.record_bytes(), 52u);
  const auto header = tfrecord::EncodeHeader(36);
  EXPECT_EQ(Hex(header.data(), header.size()), "2400000000000000422b804d");
  EXPECT_EQ(crc32c::Mask(crc32c::Value(example.data(), example.size())), 0x1f854adau);
}

TEST(TfrecordExample, RecordSizesTable) {
  const std::pair<Bytes, Bytes> table[] = {
      {1, 49},          {100, 149},         {2500, 2554},          {4096, 4150},
      {114244, 114304}, {2825761, 2825827}, {146579449, 146579515}};
  for (const auto& [payload, record] : table) {
    EXPECT_EQ(tfrecord::ExampleLayout(payload).record_bytes(), record) << payload;
  }
}

class TfrecordFiles : public ::testing::Test {
 protected:
  FileSpec make_spec(std::vector<std::int64_t> dims, std::int64_t samples,
                     std::string dtype = "uint8") {
    FileSpec spec;
    spec.path = (dir_ / "img_0_of_1.tfrecord").string();
    spec.file_index = 7;
    spec.sample_dims = std::move(dims);
    spec.samples = samples;
    spec.dtype = std::move(dtype);
    return spec;
  }
  // The first error reading samples 0..k, with the default options unless told.
  static void ReadThrough(const FileSpec& spec, std::int64_t k, const FileReadOptions& options) {
    std::vector<std::byte> out(spec.sample_bytes());
    auto reader = TfrecordReader().open(storage::PosixEnv(), spec, options);
    for (std::int64_t i = 0; i <= k; ++i) reader->read_sample(i, out);
  }
  std::string error_of(const FileSpec& spec, std::int64_t k, FileReadOptions options = {},
                       std::source_location where = std::source_location::current()) {
    return dlbench::test::ExpectError([&] { ReadThrough(spec, k, options); }, ExitCode::kIo, {},
                                      where);
  }

  dlbench::test::TempDir dir_;
};

TEST_F(TfrecordFiles, RoundTripsShapesAndReportsTrueBytes) {
  const auto content = RandomContent();
  for (const auto& [dims, samples, dtype] :
       std::vector<std::tuple<std::vector<std::int64_t>, std::int64_t, std::string>>{
           {{1, 1}, 1, "uint8"},
           {{3, 5}, 7, "uint8"},
           {{64, 64}, 5, "float32"},
           {{300, 301}, 3, "uint16"},
           {{10, 10, 3}, 4, "int64"}}) {
    FileSpec spec = make_spec(dims, samples, dtype);
    spec.dali_index_path = (dir_ / "index" / "x.idx").string();
    std::filesystem::create_directories(dir_ / "index");
    const WriteResult written = test::WriteFile(TfrecordWriter(), spec, content);
    const Bytes record = tfrecord::ExampleLayout(spec.sample_bytes()).record_bytes();
    EXPECT_EQ(written.data_bytes, TfrecordWriter().file_size(spec));
    EXPECT_EQ(std::filesystem::file_size(spec.path), written.data_bytes);
    EXPECT_EQ(written.files, (std::vector<std::string>{spec.path, spec.dali_index_path}));

    std::string index;
    for (std::int64_t k = 0; k < samples; ++k) {
      index += std::to_string(k * record) + " " + std::to_string(record) + "\n";
    }
    EXPECT_EQ(test::ReadAll(spec.dali_index_path), index);
    EXPECT_EQ(written.companion_bytes, index.size());

    for (bool verify : {false, true}) {
      FileReadOptions options;
      options.verify_checksums = verify;
      options.transfer_size = 4096;
      auto reader = TfrecordReader().open(storage::PosixEnv(), spec, options);
      std::vector<std::byte> out(spec.sample_bytes());
      Bytes total = 0;
      for (std::int64_t k = 0; k < samples; ++k) {
        total += reader->read_sample(k, out);
        EXPECT_EQ(out, test::SampleFirstBytes(content, spec, k)) << "sample " << k;
      }
      // Streaming reads every byte of the file exactly once.
      EXPECT_EQ(total, written.data_bytes);
    }
  }
}

TEST_F(TfrecordFiles, RandomAccessAndRereads) {
  const auto content = RandomContent();
  const FileSpec spec = make_spec({20, 30}, 6);
  test::WriteFile(TfrecordWriter(), spec, content);
  auto reader = TfrecordReader().open(storage::PosixEnv(), spec, {});
  std::vector<std::byte> out(spec.sample_bytes());
  for (std::int64_t k : {4, 1, 5, 0, 4}) {
    reader->read_sample(k, out);
    EXPECT_EQ(out, test::SampleFirstBytes(content, spec, k)) << k;
  }
}

TEST_F(TfrecordFiles, ParsesForeignFieldOrderAndUnknownFields) {
  const std::string image = "ABCDEFGHIJKL";  // a 3x4 uint8 sample
  const std::string bytes_feature = Field(0x0A, Field(0x0A, image));
  const std::string int_feature = Field(0x1A, Field(0x0A, Varint(12)));
  // Record 0: "size" first, value before key in the image entry, an unknown varint field.
  const std::string features0 = Field(0x0A, Field(0x0A, "size") + Field(0x12, int_feature)) +
                                Field(0x0A, Field(0x12, bytes_feature) + Field(0x0A, "image")) +
                                Raw({0x18, 0x96, 0x01});
  // Record 1: a decoy "imag" key, a fixed32 and fixed64 unknown, then a duplicate image (last
  // wins).
  const std::string other = "abcdefghijkl";
  const std::string features1 =
      Field(0x0A, Field(0x0A, "imag") + Field(0x12, bytes_feature)) +
      Field(0x0A, Field(0x0A, "image") + Field(0x12, bytes_feature)) + Raw({0x25, 1, 2, 3, 4}) +
      Raw({0x29, 1, 2, 3, 4, 5, 6, 7, 8}) +
      Field(0x0A, Field(0x0A, "image") + Field(0x12, Field(0x0A, Field(0x0A, other))));
  const FileSpec spec = make_spec({3, 4}, 2);
  test::WriteAll(spec.path, Frame(Field(0x0A, features0)) + Frame(Field(0x0A, features1)));
  for (bool verify : {false, true}) {
    FileReadOptions options;
    options.verify_checksums = verify;
    auto reader = TfrecordReader().open(storage::PosixEnv(), spec, options);
    std::vector<std::byte> out(12);
    reader->read_sample(0, out);
    EXPECT_EQ(std::string(reinterpret_cast<char*>(out.data()), 12), image);
    reader->read_sample(1, out);
    EXPECT_EQ(std::string(reinterpret_cast<char*>(out.data()), 12), other);
  }
}

FileReadOptions WithoutDataCrc() {
  FileReadOptions options;
  options.verify_checksums = false;
  return options;
}

// The length CRC is checked whatever verify_checksums says, as TensorFlow does.
TEST_F(TfrecordFiles, BadLengthCrcNamesRecordOffsetAndValues) {
  const FileSpec spec = make_spec({5, 5}, 3);
  test::WriteFile(TfrecordWriter(), spec, RandomContent());
  std::string bytes = test::ReadAll(spec.path);
  const Bytes record = tfrecord::ExampleLayout(25).record_bytes();
  bytes[record + 8] ^= 1;  // length CRC of record 1
  test::WriteAll(spec.path, bytes);
  for (const FileReadOptions& options : {FileReadOptions{}, WithoutDataCrc()}) {
    const std::string error = error_of(spec, 2, options);
    EXPECT_NE(
        error.find("read " + spec.path + ": bad tfrecord: wrong length CRC of record 1 at offset " +
                   std::to_string(record) + ": expected 0x"),
        std::string::npos)
        << error;
    EXPECT_NE(error.find("found 0x"), std::string::npos);
  }
}

// TensorFlow checks every record's data CRC; so does dlbench unless verify_checksums is off.
// After the error the reader goes on with the next record (reader.on_error: skip).
TEST_F(TfrecordFiles, BadDataCrcDetectedByDefault) {
  const auto content = RandomContent();
  const FileSpec spec = make_spec({5, 5}, 3);
  test::WriteFile(TfrecordWriter(), spec, content);
  std::string bytes = test::ReadAll(spec.path);
  const Bytes record = tfrecord::ExampleLayout(25).record_bytes();
  bytes[record + 30] ^= 0x40;  // inside record 1's image
  test::WriteAll(spec.path, bytes);
  const std::string error = error_of(spec, 1);
  EXPECT_NE(
      error.find("read " + spec.path + ": bad tfrecord: wrong data CRC of record 1 at offset " +
                 std::to_string(record) + ": expected 0x"),
      std::string::npos)
      << error;

  auto reader = TfrecordReader().open(storage::PosixEnv(), spec, {});
  std::vector<std::byte> out(spec.sample_bytes());
  reader->read_sample(0, out);
  EXPECT_THROW(reader->read_sample(1, out), Error);
  reader->read_sample(2, out);
  EXPECT_EQ(out, test::SampleFirstBytes(content, spec, 2));

  EXPECT_NO_THROW(ReadThrough(spec, 2, WithoutDataCrc()));
}

TEST_F(TfrecordFiles, TruncatedFileAndMissingRecords) {
  const FileSpec spec = make_spec({5, 5}, 3);
  test::WriteFile(TfrecordWriter(), spec, RandomContent());
  const std::string bytes = test::ReadAll(spec.path);
  const Bytes record = tfrecord::ExampleLayout(25).record_bytes();

  test::WriteAll(spec.path, bytes.substr(0, bytes.size() - 3));
  std::string error = error_of(spec, 2, WithoutDataCrc());
  EXPECT_NE(error.find("truncated record at offset " + std::to_string(2 * record)),
            std::string::npos)
      << error;

  test::WriteAll(spec.path, bytes.substr(0, 2 * record + 5));
  error = error_of(spec, 2, WithoutDataCrc());
  EXPECT_NE(error.find("truncated record header at offset " + std::to_string(2 * record)),
            std::string::npos)
      << error;

  test::WriteAll(spec.path, bytes.substr(0, 2 * record));
  error = error_of(spec, 2, WithoutDataCrc());
  EXPECT_NE(error.find("file ends after 2 records"), std::string::npos) << error;
}

TEST_F(TfrecordFiles, WrongImageSizeAndMissingImage) {
  const FileSpec written = make_spec({5, 5}, 1);
  test::WriteFile(TfrecordWriter(), written, RandomContent());
  const FileSpec expecting = make_spec({5, 6}, 1);
  std::string error = error_of(expecting, 0);
  EXPECT_NE(error.find("'image' holds 25 bytes, expected 30"), std::string::npos) << error;

  test::WriteAll(written.path,
                 Frame(Field(0x0A, Field(0x0A, Field(0x0A, "label") +
                                                   Field(0x12, Field(0x0A, Field(0x0A, "x")))))));
  error = error_of(written, 0);
  EXPECT_NE(error.find("has no 'image' bytes feature"), std::string::npos) << error;

  // A length that runs past its message.
  test::WriteAll(written.path, Frame(Raw({0x0A, 0x7F, 0x0A})));
  error = error_of(written, 0);
  EXPECT_NE(error.find("malformed Example in record 0 at offset 0"), std::string::npos) << error;
}

}  // namespace
}  // namespace dlbench::formats
