// Value decoding for dlbench's Parquet reader: one data page (v1 or v2) of a column chunk, from
// its bytes to a sample's values. The header is decoded and checked first (DecodeDataPageHeader),
// so that the reader can load the chunk's dictionary when the page needs it; then
// CopyPageValues takes the body through the chunk's codec, checks the repetition/definition
// levels (parquet_levels.h: what DLIO's rows of `size` values, without nulls, need) and copies the
// value slots asked for, PLAIN or through the dictionary (8/16-bit integers narrowed from INT32).
//
// The page's bytes must stay valid while it is decoded: the reader's fetch must not run between
// DecodeDataPageHeader and CopyPageValues (or the page is fetched again). Decompressed bodies and
// dictionary indices go to per-thread buffers, reused by the next page of the thread. Malformed
// input throws thrift::DecodeError; the reader turns it into Error(kIo) naming the file, the
// column and the page's offset.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "formats/parquet/parquet_dictionary.h"
#include "formats/parquet/parquet_layout.h"
#include "formats/parquet/parquet_metadata.h"
#include "formats/parquet/parquet_pages.h"
#include "formats/parquet/parquet_schema.h"

namespace dlbench::formats::parquet {

// A data page read, its header decoded.
struct DataPage {
  std::span<const std::byte> bytes;  // header and body
  PageHeader header;
  std::size_t header_length = 0;
  bool v2 = false;
  std::int32_t count = 0;  // value slots
  std::int32_t encoding = kPlain;
  std::int64_t first = 0;  // the column chunk's value slot of its first value

  bool dictionary_encoded() const {
    return encoding == kPlainDictionary || encoding == kRleDictionary;
  }
};

// Decodes and checks the header of `bytes`, page `ref` of its column chunk: a data page v1 or
// v2, its header and body exactly ref.length bytes, of ref.count values, PLAIN or
// dictionary-encoded.
DataPage DecodeDataPageHeader(std::span<const std::byte> bytes, const PageRef& ref);

// Decodes the body of `page` (a data page of a chunk compressed with `codec`, of column `c` held
// as `f` in the file) and copies the chunk's value slots [from, to), which the page holds, into
// `dst` at the sample's item size. `dictionary` is the chunk's when the page is
// dictionary-encoded (DictionaryCache::holds), else unused.
void CopyPageValues(const DataPage& page, std::int32_t codec, const Column& c, const FileColumn& f,
                    const DictionaryCache& dictionary, std::int64_t from, std::int64_t to,
                    std::byte* dst);

}  // namespace dlbench::formats::parquet
