// ParquetWriter::file_size remembers its last answer per thread (parquet_writer.cpp): every field
// the size depends on must make it compute again, and the path and file index must not.
#include "formats/parquet_writer.h"

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "format_files_fixture.h"
#include "format_test_support.h"
#include "formats/parquet_reader.h"
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

}  // namespace
}  // namespace dlbench::formats
