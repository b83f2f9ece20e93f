#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <tuple>
#include <vector>

#include "format_files_fixture.h"
#include "format_test_support.h"
#include "formats/io/little_endian.h"
#include "formats/parquet/parquet_codec.h"
#include "formats/parquet/parquet_layout.h"
#include "formats/parquet/parquet_metadata.h"
#include "formats/parquet/parquet_reader.h"
#include "formats/parquet/parquet_writer.h"
#include "support/test_support.h"
#include "util/error.h"

namespace dlbench::formats {
namespace {

class ParquetFiles : public test::FormatFiles<ParquetReader> {
 protected:
  ParquetFiles() : FormatFiles("img_0_of_1.parquet", 3) {}

  // Columns like flux's (a large list, small lists, a scalar) plus widened and 2-byte types.
  FileSpec columns(std::int64_t samples, std::int64_t row_group = 4) {
    FileSpec spec = make_spec({}, samples);
    spec.parquet_columns = {{"t5", "float32", 300000, true},  // 1.2 MB rows: one row per page
                            {"clip", "float32", 409, true},  {"small", "int8", 7, true},
                            {"half", "float16", 3, true},    {"u16", "uint16", 5, true},
                            {"step", "int64", 1, true}};
    spec.parquet_row_group_size = row_group;
    return spec;
  }

  // What a reader must return for sample k: the read columns' payload bytes, back to back.
  static std::vector<std::byte> Expected(const dataset::ContentGenerator& content,
                                         const FileSpec& spec, std::int64_t k) {
    const std::vector<std::byte> all = test::SampleFirstBytes(content, spec, k);
    const parquet::Layout layout = parquet::MakeLayout(spec);
    std::vector<std::byte> out;
    for (const parquet::Column& c : layout.columns) {
      if (!c.read) continue;
      out.insert(out.end(), all.begin() + static_cast<std::ptrdiff_t>(c.sample_offset),
                 all.begin() + static_cast<std::ptrdiff_t>(c.sample_offset + c.row_bytes()));
    }
    return out;
  }

  void expect_round_trip(const FileSpec& spec, const FileReadOptions& options = {}) {
    const auto content = test::RandomContent();
    const WriteResult written = test::WriteFile(ParquetWriter(), spec, content);
    EXPECT_EQ(written.files, std::vector<std::string>{spec.path});
    if (spec.compression == config::Compression::kNone) {
      EXPECT_EQ(ParquetWriter().file_size(spec), written.data_bytes);
    }
    auto reader = ParquetReader().open(storage::PosixEnv(), spec, options);
    ASSERT_EQ(reader->samples(), spec.samples);
    EXPECT_GT(reader->open_bytes(), 12u);
    std::vector<std::byte> out(reader->sample_bytes());
    for (std::int64_t k = spec.samples - 1; k >= 0; --k) {  // backwards: no order assumed
      EXPECT_GE(reader->read_sample(k, out), reader->sample_bytes()) << k;
      ASSERT_EQ(out, Expected(content, spec, k)) << "sample " << k;
    }
  }

  // The file with `n` bytes at `offset` replaced by `bytes`.
  static void Patch(const FileSpec& spec, std::size_t offset, const std::string& bytes) {
    std::string file = test::ReadAll(spec.path);
    file.replace(offset, bytes.size(), bytes);
    test::WriteAll(spec.path, file);
  }
};

TEST_F(ParquetFiles, RoundTripsColumnsRowGroupsAndPages) { expect_round_trip(columns(10)); }

TEST_F(ParquetFiles, RoundTripsGzip) {
  FileSpec spec = columns(6, 5);
  spec.compression = config::Compression::kGzip;
  spec.compression_level = 1;
  expect_round_trip(spec);
  EXPECT_THROW(ParquetWriter().file_size(spec), Error);  // content decides the size
}

// The codecs every column chunk of the file at `path` names (from its footer).
std::vector<std::int32_t> ChunkCodecs(const std::string& path) {
  const std::string file = test::ReadAll(path);
  const std::size_t footer = GetLe(file.data() + file.size() - 8, 4);
  const auto metadata = parquet::DecodeFileMetaData(
      {reinterpret_cast<const std::byte*>(file.data()) + file.size() - 8 - footer, footer});
  std::vector<std::int32_t> codecs;
  for (const auto& group : metadata.row_groups) {
    for (const auto& chunk : group.columns) codecs.push_back(chunk.meta_data->codec);
  }
  return codecs;
}

TEST_F(ParquetFiles, RoundTripsSnappyAndZstd) {
  // pyarrow's default codec and the one MLCommons DLIO YAMLs pick for size; the column chunks
  // name them and the page sizes in the headers are what the reader checks the bodies against.
  for (const auto& [compression, codec, level] :
       {std::tuple{config::Compression::kSnappy, parquet::kSnappy, 4},
        std::tuple{config::Compression::kZstd, parquet::kZstd, 1},
        std::tuple{config::Compression::kZstd, parquet::kZstd, 19}}) {
    FileSpec spec = columns(6, 5);
    spec.compression = compression;
    spec.compression_level = level;
    expect_round_trip(spec);
    EXPECT_EQ(ChunkCodecs(spec.path),
              std::vector<std::int32_t>(12, codec))  // 6 columns, 2 row groups
        << config::ToString(compression);
    EXPECT_THROW(ParquetWriter().file_size(spec), Error);  // content decides the size
  }
}

TEST(ParquetCodec, CompressRefusesTheCodecsDlbenchDoesNotWrite) {
  // parquet::MakeLayout only asks for SNAPPY, GZIP and ZSTD; anything else is a bug, not input.
  const std::vector<std::byte> page(100, std::byte{7});
  std::vector<std::byte> out;
  for (const std::int32_t codec : {parquet::kUncompressed, parquet::kLz4, parquet::kBrotli}) {
    try {
      parquet::Compress(codec, 1, page, out);
      ADD_FAILURE() << parquet::CodecName(codec) << " compressed";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ExitCode::kInternal);
      EXPECT_NE(std::string(e.what()).find(parquet::CodecName(codec)), std::string::npos);
    }
  }
}

TEST_F(ParquetFiles, RoundTripsDlioLegacyDataColumn) {
  // No columns: one uint8 column "data" of the sample's elements (dlrm_parquet).
  expect_round_trip(make_spec({22, 22}, 3));
  const std::string file = test::ReadAll(make_spec({22, 22}, 3).path);
  EXPECT_EQ(file.substr(0, 4), "PAR1");
  EXPECT_EQ(file.substr(file.size() - 4), "PAR1");
}

TEST_F(ParquetFiles, ReadsOnlyTheProjectedColumns) {
  FileSpec spec = columns(5);
  spec.parquet_columns[0].read = false;  // t5
  spec.parquet_columns[3].read = false;  // half
  expect_round_trip(spec);
  auto reader = ParquetReader().open(storage::PosixEnv(), spec, {});
  EXPECT_EQ(reader->sample_bytes(), 409u * 4 + 7 + 5 * 2 + 8);
  std::vector<std::byte> out(reader->sample_bytes());
  EXPECT_LT(reader->read_sample(0, out), 100000u);  // t5's pages are not read
}

TEST_F(ParquetFiles, LaysOutOneRowPerPageForLargeRowsAndWholeRowsOtherwise) {
  const parquet::Layout layout = parquet::MakeLayout(columns(10));
  EXPECT_EQ(layout.columns[0].rows_per_page, 1);
  EXPECT_TRUE(layout.columns[0].is_list);
  EXPECT_EQ(layout.columns[1].rows_per_page, static_cast<std::int64_t>(MiB / (409 * 4)));
  EXPECT_EQ(layout.columns[2].value_bytes, 4);  // int8 as INT32
  EXPECT_FALSE(layout.columns[5].is_list);
  EXPECT_EQ(layout.row_groups(), 3);
  EXPECT_EQ(layout.rows_in_group(2), 2);
  EXPECT_EQ(layout.sample_bytes, 300000u * 4 + 409 * 4 + 7 + 3 * 2 + 5 * 2 + 8);
}

TEST_F(ParquetFiles, RefusesColumnsItCannotHold) {
  FileSpec spec = columns(2);
  spec.parquet_columns[1].dtype = "bool";
  EXPECT_THROW(parquet::MakeLayout(spec), Error);
  spec = columns(2);
  spec.compression = config::Compression::kZip;
  EXPECT_THROW(parquet::MakeLayout(spec), Error);
}

TEST_F(ParquetFiles, TruncatedFileIsAnIoErrorNamingIt) {
  const FileSpec spec = columns(3);
  test::WriteFile(ParquetWriter(), spec, test::RandomContent());
  const std::string file = test::ReadAll(spec.path);
  test::WriteAll(spec.path, file.substr(0, file.size() - 3));
  EXPECT_NE(read_error(spec).find("no \"PAR1\" at the end"), std::string::npos);
  test::WriteAll(spec.path, file.substr(0, 10));
  EXPECT_NE(read_error(spec).find("less than the 12"), std::string::npos);
}

TEST_F(ParquetFiles, FooterLengthPastTheStartIsAnIoError) {
  const FileSpec spec = columns(3);
  test::WriteFile(ParquetWriter(), spec, test::RandomContent());
  const std::size_t size = test::ReadAll(spec.path).size();
  std::string huge;
  PutLe(huge, size, 4);
  Patch(spec, size - 8, huge);
  EXPECT_NE(read_error(spec).find("footer length"), std::string::npos);
}

TEST_F(ParquetFiles, BadLeadingMagicIsAnIoError) {
  const FileSpec spec = columns(3);
  test::WriteFile(ParquetWriter(), spec, test::RandomContent());
  Patch(spec, 0, "PAR2");
  EXPECT_NE(read_error(spec).find("no \"PAR1\" at the start"), std::string::npos);
}

TEST_F(ParquetFiles, CorruptedFooterIsAnIoError) {
  const FileSpec spec = columns(3);
  test::WriteFile(ParquetWriter(), spec, test::RandomContent());
  const std::string file = test::ReadAll(spec.path);
  const std::size_t footer = file.size() - 8 - GetLe(file.data() + file.size() - 8, 4);
  Patch(spec, footer, std::string(8, '\xff'));
  EXPECT_NE(read_error(spec).find("corrupted footer"), std::string::npos);
}

TEST_F(ParquetFiles, CorruptedPageHeaderIsAnIoErrorOnRead) {
  const FileSpec spec = columns(3);
  test::WriteFile(ParquetWriter(), spec, test::RandomContent());
  Patch(spec, 4, "\xff");  // the first page header's first field header: thrift type 15
  EXPECT_NO_THROW(ParquetReader().open(storage::PosixEnv(), spec, {}));  // open reads no page
  const std::string error = read_error(spec);
  EXPECT_NE(error.find("column 't5': corrupted page header"), std::string::npos) << error;
  EXPECT_NE(error.find("offset 4"), std::string::npos) << error;
}

TEST_F(ParquetFiles, CorruptedLevelsAndGzipBodiesAreIoErrors) {
  FileSpec spec = columns(3);
  spec.parquet_columns = {{"v", "float32", 10, true}};
  test::WriteFile(ParquetWriter(), spec, test::RandomContent());
  // The first page: header, then the 4-byte length of the repetition levels and their first run
  // (1 x level 0): make it "1 x level 1".
  const std::string file = test::ReadAll(spec.path);
  std::size_t header = 0;
  parquet::DecodePageHeader(
      std::span<const std::byte>(reinterpret_cast<const std::byte*>(file.data()) + 4,
                                 file.size() - 4),
      &header);
  Patch(spec, 4 + header + 4 + 1, "\x01");
  EXPECT_NE(read_error(spec).find("repetition levels"), std::string::npos);

  spec.compression = config::Compression::kGzip;
  test::WriteFile(ParquetWriter(), spec, test::RandomContent());
  const std::string gz = test::ReadAll(spec.path);
  Patch(spec, 40, std::string(1, static_cast<char>(gz[40] ^ 0x55)));
  EXPECT_NE(read_error(spec).find("corrupt GZIP page"), std::string::npos);
}

TEST_F(ParquetFiles, FileOfOtherColumnsOrRowsIsAnIoError) {
  const FileSpec spec = columns(3);
  test::WriteFile(ParquetWriter(), spec, test::RandomContent());
  FileSpec other = spec;
  other.parquet_columns[2].dtype = "uint8";
  EXPECT_NE(read_error(other).find("schema: column 'small' holds physical type 1 with INT(8, "
                                   "signed), expected 1 with INT(8, unsigned) for dtype uint8"),
            std::string::npos);
  other = spec;
  other.samples = 4;
  EXPECT_NE(read_error(other).find("holds 3 rows, expected 4"), std::string::npos);
}

TEST_F(ParquetFiles, ReadsTheCodecTheFileSaysWhateverTheConfiguration) {
  // dataset.compression decides how dlbench writes; a reader (pyarrow, DLIO's) reads the codec
  // each column chunk names, so a gzip file reads under compression: none.
  FileSpec spec = columns(3);
  spec.compression = config::Compression::kGzip;
  test::WriteFile(ParquetWriter(), spec, test::RandomContent());
  const auto content = test::RandomContent();
  FileSpec none = spec;
  none.compression = config::Compression::kNone;
  auto reader = ParquetReader().open(storage::PosixEnv(), none, {});
  std::vector<std::byte> out(reader->sample_bytes());
  reader->read_sample(2, out);
  EXPECT_EQ(out, Expected(content, spec, 2));
}

TEST_F(ParquetFiles, AnyDamagedMetadataByteIsAnIoErrorOrHarmless) {
  // Every byte of a gzip file: page headers, compressed bodies, offset indexes, footer (some, e.g.
  // created_by, do not matter), tail.
  FileSpec spec = make_spec({}, 5);
  spec.parquet_columns = {{"v", "float32", 6, true}, {"s", "int16", 1, true}};
  spec.parquet_row_group_size = 3;
  spec.compression = config::Compression::kGzip;
  test::WriteFile(ParquetWriter(), spec, test::RandomContent());
  ExpectDamageIsAnIoErrorOrHarmless(spec);
}

}  // namespace
}  // namespace dlbench::formats
