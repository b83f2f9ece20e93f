// ParquetWriter remembers per thread its last file_size answer and its last small file's image
// (parquet_writer.cpp): every field the layout depends on must make it compute again, and the
// path and file index must not; a file written from the image has the bytes of one built anew.
#include "formats/parquet/parquet_writer.h"

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "format_files_fixture.h"
#include "format_test_support.h"
#include "formats/parquet/parquet_reader.h"
#include "util/error.h"

namespace dlbench::formats {
namespace {

class ParquetWriterSize : public test::FormatFiles<ParquetReader> {
 protected:
  ParquetWriterSize() : FormatFiles("img_0_of_1.parquet", 1) {}
};

TEST_F(ParquetWriterSize, EveryFieldItDependsOnCountsAndNoOther) {
  const ParquetWriter writer;
  const auto content = test::RandomContent();
  FileSpec base = make_spec({10}, 3, "float32");
  const Bytes base_size = test::WriteFile(writer, base, content).data_bytes;
  const std::vector<std::pair<std::string, std::function<void(FileSpec&)>>> changes = {
      {"sample_dims", [](FileSpec& s) { s.sample_dims = {12}; }},
      {"dtype", [](FileSpec& s) { s.dtype = "float64"; }},
      {"samples", [](FileSpec& s) { s.samples = 4; }},
      {"row group size", [](FileSpec& s) { s.parquet_row_group_size = 2; }},
      {"columns",
       [](FileSpec& s) {
         s.parquet_columns = {{"a", "int64", 10, true}};
       }},
      {"column name", [](FileSpec& s) {
         s.parquet_columns = {{"abc", "int64", 10, true}};
       }}};
  for (const auto& [what, change] : changes) {
    FileSpec other = base;
    change(other);
    EXPECT_EQ(writer.file_size(base), base_size) << what;
    const Bytes written = test::WriteFile(writer, other, content).data_bytes;
    EXPECT_NE(written, base_size) << what << ": the case does not change the size";
    EXPECT_EQ(writer.file_size(other), written) << what;  // right after base's answer
    EXPECT_EQ(writer.file_size(base), base_size) << what;
  }
  // gzip's size depends on the content: asked after an uncompressed answer, still an error.
  FileSpec gzip = base;
  gzip.compression = config::Compression::kGzip;
  EXPECT_EQ(writer.file_size(base), base_size);
  EXPECT_THROW(writer.file_size(gzip), Error);
  // The path and the file index pick the content, not the size.
  FileSpec elsewhere = base;
  elsewhere.file_index = base.file_index + 7;
  EXPECT_EQ(test::WriteFile(writer, elsewhere, content).data_bytes, base_size);
  EXPECT_EQ(writer.file_size(elsewhere), base_size);
}

// The bytes `writer` gives `spec` on a thread that wrote nothing before (no image to reuse).
std::string WrittenAlone(const ParquetWriter& writer, const FileSpec& spec,
                         const dataset::ContentGenerator& content) {
  std::thread([&] { test::WriteFile(writer, spec, content); }).join();
  return test::ReadAll(spec.path);
}

TEST_F(ParquetWriterSize, FileFromTheLastImageIsTheFileBuiltAnew) {
  const ParquetWriter writer;
  const auto content = test::RandomContent();
  // Lists with levels, a widened int8 column, a primitive, two row groups: several pages.
  FileSpec first = make_spec({1}, 5, "float32");
  first.parquet_columns = {
      {"a", "int8", 10, true}, {"b", "float64", 1, true}, {"c", "int16", 3, true}};
  first.parquet_row_group_size = 2;
  FileSpec second = first;
  second.path += ".second";
  second.file_index = first.file_index + 1;
  FileSpec other_layout = second;
  other_layout.path += ".other";
  other_layout.parquet_columns[1].name = "d";  // same size, other bytes
  const std::string second_alone = WrittenAlone(writer, second, content);
  const std::string other_alone = WrittenAlone(writer, other_layout, content);
  std::thread([&] {
    test::WriteFile(writer, first, content);
    test::WriteFile(writer, second, content);  // from first's image
    EXPECT_EQ(test::ReadAll(second.path), second_alone);
    EXPECT_NE(test::ReadAll(second.path), test::ReadAll(first.path));  // its own values
    test::WriteFile(writer, other_layout, content);                    // not from the image
    EXPECT_EQ(test::ReadAll(other_layout.path), other_alone);
    test::WriteFile(writer, second, content);
    EXPECT_EQ(test::ReadAll(second.path), second_alone);
  }).join();
  // And the reader finds second's own samples in it.
  const auto reader = ParquetReader().open(storage::PosixEnv(), second, {});
  ASSERT_EQ(reader->samples(), 5);
  std::vector<std::byte> sample(reader->sample_bytes());
  for (std::int64_t k = 0; k < 5; ++k) {
    reader->read_sample(k, sample);
    EXPECT_EQ(sample, test::SampleFirstBytes(content, second, k)) << "sample " << k;
  }
}

}  // namespace
}  // namespace dlbench::formats
