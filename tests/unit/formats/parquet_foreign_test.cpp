// The Parquet reader on files laid out the way other writers lay them out (parquet_file_builder.h):
// pyarrow as MLCommons DLIO calls it, data pages v2, each codec, offset indexes or none; and on
// each kind of damage to them.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "format_files_fixture.h"
#include "format_test_support.h"
#include "formats/parquet/parquet_codec.h"
#include "formats/parquet/parquet_reader.h"
#include "parquet_file_builder.h"
#include "recording_env.h"
#include "util/error.h"

namespace dlbench::formats {
namespace {

using test::ForeignColumn;
using test::ForeignFile;
using test::ForeignPage;

class ParquetForeign : public test::FormatFiles<ParquetReader> {
 protected:
  ParquetForeign() : FormatFiles("img_0_of_1.parquet", 1) {}

  std::string file() { return make_spec({}, 1).path; }

  // flux-like columns as pyarrow writes DLIO's table: nullable, FixedSizeList columns as LISTs of
  // nullable elements, dictionary pages falling back to PLAIN, pages cut inside t5's rows.
  static ForeignFile Pyarrow(std::int32_t codec) {
    ForeignFile f;
    f.columns = {
        {"t5", "float32", 250, true, "element", 0}, {"clip", "float32", 9, true, "element", 40},
        {"ts", "float32", 1, true, "element", 0},   {"i8", "int8", 3, true, "element", 5},
        {"half", "float16", 2, true, "element", 0}, {"u64", "uint64", 1, true, "element", 3}};
    f.row_groups = {7, 5};
    f.codec = codec;
    f.page_values = 100;
    f.dictionary_pages = 2;
    return f;
  }

  FileSpec write(
      const ForeignFile& f,
      const std::function<void(std::size_t, std::size_t, parquet::PageHeader&)>& tweak = {}) {
    test::WriteAll(file(), test::BuildForeignFile(f, tweak));
    return test::ForeignSpec(f, file());
  }

  // Reads every sample (backwards) and compares it with the values the builder wrote.
  static void ExpectReads(const ForeignFile& f, const FileSpec& spec,
                          const FileReadOptions& o = {}) {
    std::vector<bool> read;
    for (const auto& c : spec.parquet_columns) read.push_back(c.read);
    auto reader = ParquetReader().open(storage::PosixEnv(), spec, o);
    ASSERT_EQ(reader->samples(), spec.samples);
    std::vector<std::byte> out(reader->sample_bytes());
    for (std::int64_t k = spec.samples - 1; k >= 0; --k) {
      EXPECT_GT(reader->read_sample(k, out), 0u);
      ASSERT_EQ(out, test::ExpectedSample(f, k, read)) << "sample " << k;
    }
  }
};

TEST_F(ParquetForeign, ReadsPyarrowFilesWithEveryCodec) {
  for (const std::int32_t codec :
       {parquet::kUncompressed, parquet::kSnappy, parquet::kGzip, parquet::kZstd}) {
    SCOPED_TRACE(parquet::CodecName(codec));
    const ForeignFile f = Pyarrow(codec);
    ExpectReads(f, write(f));
  }
}

TEST_F(ParquetForeign, ReadsDataPagesV2) {
  ForeignFile f = Pyarrow(parquet::kSnappy);
  f.v2 = true;
  ExpectReads(f, write(f));
  f.codec = parquet::kUncompressed;  // is_compressed false
  ExpectReads(f, write(f));
}

TEST_F(ParquetForeign, ReadsRequiredColumnsItemLeavesParquet1DictionariesAndMixedPages) {
  ForeignFile f = Pyarrow(parquet::kZstd);
  for (ForeignColumn& c : f.columns) {
    c.optional = false;
    c.leaf = "item";  // pyarrow before 13
  }
  f.dictionary_encoding = parquet::kPlainDictionary;
  f.data_dictionary_encoding = parquet::kPlainDictionary;
  // Pages of 1 to 61 values, v1 and v2 alternating, dictionary-encoded one in two.
  f.pages = [](std::size_t c, std::size_t, std::int64_t slots) {
    std::vector<ForeignPage> pages;
    for (std::int64_t at = 0, n = 1 + static_cast<std::int64_t>(c); at < slots;
         n = n * 3 % 61 + 1) {
      pages.push_back({std::min(n, slots - at), pages.size() % 2 == 0, pages.size() % 3 == 1});
      at += pages.back().count;
    }
    return pages;
  };
  ExpectReads(f, write(f));
}

TEST_F(ParquetForeign, ReadsAOneEntryDictionaryOfBitWidthZero) {
  ForeignFile f;
  f.columns = {{"same", "float32", 20, true, "element", 1},
               {"one", "int16", 1, true, "element", 1}};
  f.row_groups = {30};
  f.dictionary_pages = 1000;  // every page
  f.codec = parquet::kSnappy;
  ExpectReads(f, write(f));
}

TEST_F(ParquetForeign, ReadsDictionaryPagesThatDataPageOffsetPointsAt) {
  ForeignFile f = Pyarrow(parquet::kGzip);
  f.write_dictionary_page_offset = false;  // older writers
  ExpectReads(f, write(f));
}

TEST_F(ParquetForeign, ReadsOffsetIndexesWithDictionaryPages) {
  // pyarrow with write_page_index=True and arrow-rs: pages start rows; the dictionary page is
  // not in the index.
  ForeignFile f = Pyarrow(parquet::kSnappy);
  f.offset_index = true;
  const std::vector<std::int64_t> sizes{250, 9, 1, 3, 2, 1};
  f.pages = [&](std::size_t c, std::size_t, std::int64_t slots) {
    std::vector<ForeignPage> pages;
    for (std::int64_t at = 0; at < slots;) {
      const std::int64_t n = std::min(slots - at, sizes[c] * (pages.size() % 2 == 0 ? 2 : 3));
      pages.push_back({n, pages.size() == 0, false});
      at += n;
    }
    return pages;
  };
  ExpectReads(f, write(f));
}

TEST_F(ParquetForeign, ReadsOnlyTheProjectedColumnsPages) {
  const ForeignFile f = Pyarrow(parquet::kUncompressed);
  FileSpec spec = write(f);
  spec.parquet_columns[0].read = false;  // t5
  ExpectReads(f, spec);
  auto reader = ParquetReader().open(storage::PosixEnv(), spec, {});
  std::vector<std::byte> out(reader->sample_bytes());
  EXPECT_LT(reader->read_sample(0, out), 5000u);  // t5's dictionary page alone holds 7,000
}

TEST_F(ParquetForeign, ReadsWithODirect) {
  const test::DirectTempDir direct_dir;
  if (direct_dir.path().empty()) GTEST_SKIP() << "no folder here accepts O_DIRECT";
  ForeignFile f = Pyarrow(parquet::kSnappy);
  f.pages = [](std::size_t, std::size_t, std::int64_t slots) {  // v1 and v2, dictionary first
    std::vector<ForeignPage> pages;
    for (std::int64_t at = 0; at < slots; at += 70) {
      pages.push_back(
          {std::min<std::int64_t>(70, slots - at), pages.size() < 3, pages.size() % 2 == 1});
    }
    return pages;
  };
  FileSpec spec = test::ForeignSpec(f, (direct_dir / "img_0_of_1.parquet").string());
  test::WriteAll(spec.path, test::BuildForeignFile(f));
  FileReadOptions direct;
  direct.direct = true;
  ExpectReads(f, spec, direct);
}

TEST_F(ParquetForeign, ANullIsADataErrorNamingItsRow) {
  ForeignFile f = Pyarrow(parquet::kSnappy);
  f.null_slot = 260;  // row 1 of t5, in the page of slots 200..299 that row 0 also needs
  const std::string error = read_error(write(f));
  test::ExpectContains(error, "column 't5': definition levels: level 2 of 3");
  test::ExpectContains(error, "in row 1 of the row group; DLIO samples have no nulls");
  f.v2 = true;
  test::ExpectContains(read_error(write(f)), "in row 1 of the row group");
}

TEST_F(ParquetForeign, NullsCountedByADataPageV2AreADataError) {
  ForeignFile f = Pyarrow(parquet::kUncompressed);
  f.v2 = true;
  test::ExpectContains(read_error(write(f,
                                        [](std::size_t c, std::size_t, parquet::PageHeader& h) {
                                          if (c == 0 && h.data_page_header_v2)
                                            h.data_page_header_v2->num_nulls = 1;
                                        })),
                       "a page of 1 nulls; DLIO samples have none");
}

TEST_F(ParquetForeign, ADictionaryIndexPastTheDictionaryIsADataError) {
  ForeignFile f = Pyarrow(parquet::kUncompressed);
  f.dictionary_missing = 3;
  test::ExpectContains(ReadEveryError(write(f)), "past the dictionary's");
}

TEST_F(ParquetForeign, AnIndexBitWidthOver32IsADataError) {
  ForeignFile f = Pyarrow(parquet::kUncompressed);
  f.index_width_byte = 33;
  test::ExpectContains(read_error(write(f)), "column 't5': dictionary indices: bit width 33");
}

TEST_F(ParquetForeign, APagePastItsColumnChunkIsADataError) {
  const ForeignFile f = Pyarrow(parquet::kSnappy);
  const std::string error =
      read_error(write(f, [](std::size_t c, std::size_t, parquet::PageHeader& h) {
        if (c == 0 && h.type == parquet::kDataPage) h.compressed_page_size += 100000;
      }));
  test::ExpectContains(error, "column 't5': a page of ");
  test::ExpectContains(error, "runs past the column chunk's end");
}

TEST_F(ParquetForeign, PagesThatDoNotAddUpToTheChunkAreADataError) {
  ForeignFile f = Pyarrow(parquet::kUncompressed);
  f.page_values = 1000;  // one page per chunk
  test::ExpectContains(ReadEveryError(write(f,
                                            [](std::size_t c, std::size_t, parquet::PageHeader& h) {
                                              if (c == 2 && h.data_page_header)
                                                h.data_page_header->num_values -= 1;
                                            })),
                       "column 'ts': the column chunk's pages hold 6 values, its metadata 7");
}

TEST_F(ParquetForeign, AnUnknownCodecOrEncodingIsADataErrorNamingIt) {
  ForeignFile f = Pyarrow(parquet::kBrotli);
  test::ExpectContains(open_error(write(f)), "column 't5': codec 4 (BROTLI) is not read");
  f = Pyarrow(parquet::kUncompressed);
  f.dictionary_pages = 0;
  test::ExpectContains(read_error(write(f,
                                        [](std::size_t, std::size_t, parquet::PageHeader& h) {
                                          if (h.data_page_header) h.data_page_header->encoding = 5;
                                        })),
                       "column 't5': value encoding 5");
  test::ExpectContains(read_error(write(f,
                                        [](std::size_t, std::size_t, parquet::PageHeader& h) {
                                          if (h.data_page_header)
                                            h.data_page_header->definition_level_encoding = 4;
                                        })),
                       "level encoding 4 (dlbench reads RLE levels)");
}

TEST_F(ParquetForeign, MisplacedOrMissingDictionaryPagesAreDataErrors) {
  ForeignFile f = Pyarrow(parquet::kUncompressed);
  f.dictionary_pages = 0;
  test::ExpectContains(read_error(write(f,
                                        [](std::size_t, std::size_t, parquet::PageHeader& h) {
                                          if (h.data_page_header)
                                            h.data_page_header->encoding = parquet::kRleDictionary;
                                        })),
                       "column 't5': a dictionary-encoded page in a column chunk without a "
                       "dictionary page");
  test::ExpectContains(
      read_error(write(f,
                       [](std::size_t, std::size_t, parquet::PageHeader& h) {
                         if (h.data_page_header && h.data_page_header->num_values == 100)
                           h.type = parquet::kDictionaryPage;
                       })),
      "a dictionary page without its header or after data pages");
}

TEST_F(ParquetForeign, ASchemaOtherThanTheConfigurationsIsADataError) {
  const ForeignFile f = Pyarrow(parquet::kUncompressed);
  FileSpec spec = write(f);
  spec.parquet_columns[3].dtype = "int16";
  test::ExpectContains(open_error(spec),
                       "schema: column 'i8' holds physical type 1 with INT(8, "
                       "signed), expected 1 with INT(16, signed) for dtype int16");
  spec = write(f);
  spec.parquet_columns[2].size = 2;
  test::ExpectContains(open_error(spec), "column 'ts' holds one value per row");
  spec = write(f);
  spec.parquet_columns[1].size = 8;
  test::ExpectContains(read_error(spec), "values, expected");  // the chunk holds 9 a row
}

TEST_F(ParquetForeign, AnyDamagedByteIsAnIoErrorOrHarmless) {
  // A small file through every new path — dictionary page, RLE_DICTIONARY and PLAIN pages, v1
  // and v2, levels of a nullable list, snappy — with every byte set to three values in turn:
  // opening and reading every sample works or ends in Error(kIo); never a crash or a hang.
  ForeignFile f;
  f.columns = {{"v", "float32", 6, true, "element", 4}, {"s", "int16", 1, true, "element", 0}};
  f.row_groups = {3, 2};
  f.codec = parquet::kSnappy;
  f.pages = [](std::size_t, std::size_t, std::int64_t slots) {
    std::vector<ForeignPage> pages;
    for (std::int64_t at = 0; at < slots; at += 5) {
      pages.push_back(
          {std::min<std::int64_t>(5, slots - at), pages.size() < 2, pages.size() % 2 == 1});
    }
    return pages;
  };
  const FileSpec spec = write(f);
  ExpectReads(f, spec);
  ExpectDamageIsAnIoErrorOrHarmless(spec);
}

}  // namespace
}  // namespace dlbench::formats
