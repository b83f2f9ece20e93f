#include "formats/parquet/parquet_values.h"

#include <cstring>
#include <string>
#include <vector>

#include "formats/io/little_endian.h"
#include "formats/parquet/parquet_codec.h"
#include "formats/parquet/parquet_levels.h"
#include "formats/parquet/thrift_compact.h"

namespace dlbench::formats::parquet {
namespace {

// A page's decompressed body and a row's dictionary indices, per thread: with read_type
// on_demand a file is opened for every sample, and page-sized allocations per open would cost
// more than the read.
thread_local std::vector<std::byte> body_scratch;
thread_local std::vector<std::uint32_t> index_scratch;

// Copies n values of `c` from their on-disk width to the sample's (8/16-bit integers are stored
// as INT32: their low bytes, little-endian).
template <int Item>
void NarrowValues(const std::byte* src, int value_bytes, std::int64_t n, std::byte* dst) {
  for (std::int64_t i = 0; i < n; ++i) std::memcpy(dst + i * Item, src + i * value_bytes, Item);
}

void CopyValues(const Column& c, const std::byte* src, std::int64_t n, std::byte* dst) {
  if (c.value_bytes == c.itemsize) {
    std::memcpy(dst, src, static_cast<std::size_t>(n) * static_cast<std::size_t>(c.itemsize));
  } else if (c.itemsize == 1) {
    NarrowValues<1>(src, c.value_bytes, n, dst);
  } else {
    NarrowValues<2>(src, c.value_bytes, n, dst);
  }
}

// dst[i] = dictionary entry index[i], narrowed like CopyValues.
template <int Item>
void GatherValues(const std::byte* dictionary, int value_bytes, const std::uint32_t* index,
                  std::int64_t n, std::byte* dst) {
  for (std::int64_t i = 0; i < n; ++i) {
    std::memcpy(dst + i * Item, dictionary + static_cast<std::size_t>(index[i]) * value_bytes,
                Item);
  }
}

void GatherValues(const Column& c, const std::byte* dictionary, const std::uint32_t* index,
                  std::int64_t n, std::byte* dst) {
  switch (c.itemsize) {
    case 1:
      return GatherValues<1>(dictionary, c.value_bytes, index, n, dst);
    case 2:
      return GatherValues<2>(dictionary, c.value_bytes, index, n, dst);
    case 4:
      return GatherValues<4>(dictionary, c.value_bytes, index, n, dst);
    default:
      return GatherValues<8>(dictionary, c.value_bytes, index, n, dst);
  }
}

// The 4-byte length prefix of a data page v1's level section at `*pos`, and the section.
std::span<const std::byte> V1LevelSection(std::span<const std::byte> page, std::size_t* pos,
                                          const char* what) {
  if (page.size() - *pos < 4) {
    throw thrift::DecodeError(std::string("page too short for its ") + what + " levels");
  }
  const std::uint64_t length = GetLe(page.data() + *pos, 4);
  *pos += 4;
  if (length > page.size() - *pos) {
    throw thrift::DecodeError(std::string(what) + " levels of " + std::to_string(length) +
                              " bytes run past the page");
  }
  const std::span<const std::byte> section = page.subspan(*pos, length);
  *pos += length;
  return section;
}

// A page body (or v2's values) after the chunk's codec: in place when stored uncompressed, else
// decompressed into the thread's body buffer.
std::span<const std::byte> Decompressed(std::int32_t codec, bool compressed,
                                        std::span<const std::byte> in, Bytes size) {
  if (!compressed || codec == kUncompressed) {
    if (in.size() != size) {
      throw thrift::DecodeError("an uncompressed page body of " + std::to_string(in.size()) +
                                " bytes, its header says " + std::to_string(size));
    }
    return in;
  }
  if (body_scratch.size() < size) body_scratch.resize(size);
  const std::span<std::byte> out(body_scratch.data(), static_cast<std::size_t>(size));
  Decompress(codec, in, out);
  return out;
}

// The levels and values sections of a page's body.
struct PageSections {
  std::span<const std::byte> repetition, definition, values;
};

PageSections SplitV2(const DataPage& page, std::int32_t codec, const FileColumn& f) {
  const PageHeader& h = page.header;
  const DataPageHeaderV2& d = *h.data_page_header_v2;
  const std::span<const std::byte> body = page.bytes.subspan(page.header_length);
  const auto rl = static_cast<std::int64_t>(d.repetition_levels_byte_length);
  const auto dl = static_cast<std::int64_t>(d.definition_levels_byte_length);
  if (rl < 0 || dl < 0 || rl + dl > h.compressed_page_size || rl + dl > h.uncompressed_page_size ||
      (f.max_repetition == 0 && rl != 0) || (f.max_definition == 0 && dl != 0)) {
    throw thrift::DecodeError("levels of " + std::to_string(rl) + " + " + std::to_string(dl) +
                              " bytes in a page of " + std::to_string(h.compressed_page_size));
  }
  if (d.num_nulls != 0) {
    throw thrift::DecodeError("a page of " + std::to_string(d.num_nulls) +
                              " nulls; DLIO samples have none");
  }
  PageSections s;
  s.repetition = body.subspan(0, static_cast<std::size_t>(rl));
  s.definition = body.subspan(static_cast<std::size_t>(rl), static_cast<std::size_t>(dl));
  s.values = Decompressed(codec, d.is_compressed, body.subspan(static_cast<std::size_t>(rl + dl)),
                          static_cast<Bytes>(h.uncompressed_page_size - rl - dl));
  return s;
}

PageSections SplitV1(const DataPage& page, std::int32_t codec, const FileColumn& f) {
  const PageHeader& h = page.header;
  const DataPageHeader& d = *h.data_page_header;
  const bool bad_repetition = f.max_repetition > 0 && d.repetition_level_encoding != kRle;
  if (bad_repetition || (f.max_definition > 0 && d.definition_level_encoding != kRle)) {
    throw thrift::DecodeError(
        "level encoding " +
        std::to_string(bad_repetition ? d.repetition_level_encoding : d.definition_level_encoding) +
        " (dlbench reads RLE levels)");
  }
  const std::span<const std::byte> all =
      Decompressed(codec, true, page.bytes.subspan(page.header_length),
                   static_cast<Bytes>(h.uncompressed_page_size));
  PageSections s;
  std::size_t pos = 0;
  if (f.max_repetition > 0) s.repetition = V1LevelSection(all, &pos, "repetition");
  if (f.max_definition > 0) s.definition = V1LevelSection(all, &pos, "definition");
  s.values = all.subspan(pos);
  return s;
}

}  // namespace

DataPage DecodeDataPageHeader(std::span<const std::byte> bytes, const PageRef& ref) {
  DataPage page;
  page.bytes = bytes;
  page.first = ref.first;
  PageHeader& h = page.header;
  try {
    h = DecodePageHeader(bytes, &page.header_length);
  } catch (const thrift::DecodeError& e) {
    throw thrift::DecodeError(std::string("corrupted page header: ") + e.what());
  }
  page.v2 = h.type == kDataPageV2 && h.data_page_header_v2;
  if (!page.v2 && !(h.type == kDataPage && h.data_page_header)) {
    throw thrift::DecodeError("page type " + std::to_string(h.type) +
                              " where a data page should be");
  }
  page.count = page.v2 ? h.data_page_header_v2->num_values : h.data_page_header->num_values;
  page.encoding = page.v2 ? h.data_page_header_v2->encoding : h.data_page_header->encoding;
  if (h.compressed_page_size < 0 || h.uncompressed_page_size < 0 ||
      page.header_length + static_cast<Bytes>(h.compressed_page_size) != ref.length) {
    throw thrift::DecodeError("page header says " + std::to_string(page.header_length) + " + " +
                              std::to_string(h.compressed_page_size) + " bytes, expected " +
                              std::to_string(ref.length) + " in all");
  }
  if (page.count != ref.count) {
    throw thrift::DecodeError("page of " + std::to_string(page.count) + " values, expected " +
                              std::to_string(ref.count));
  }
  if (page.encoding != kPlain && !page.dictionary_encoded()) {
    throw thrift::DecodeError("value encoding " + std::to_string(page.encoding) +
                              " (dlbench reads PLAIN and dictionary-encoded pages)");
  }
  return page;
}

void CopyPageValues(const DataPage& page, std::int32_t codec, const Column& c, const FileColumn& f,
                    const DictionaryCache& dictionary, std::int64_t from, std::int64_t to,
                    std::byte* dst) {
  const std::int32_t count = page.count;
  // Values, at most 16 bytes of levels or indices per value and the length prefixes: a larger
  // size is corrupt (and would make the decompression buffer grow to it).
  const Bytes most = static_cast<Bytes>(count) * (static_cast<Bytes>(c.value_bytes) + 16) + 64;
  if (static_cast<Bytes>(page.header.uncompressed_page_size) > most) {
    throw thrift::DecodeError("uncompressed page size " +
                              std::to_string(page.header.uncompressed_page_size) + " exceeds the " +
                              std::to_string(most) + " bytes " + std::to_string(count) +
                              " values can take");
  }
  const PageSections s = page.v2 ? SplitV2(page, codec, f) : SplitV1(page, codec, f);
  if (f.max_repetition > 0) CheckRepetitionLevels(s.repetition, page.first, count, c.size);
  if (f.max_definition > 0) {
    CheckDefinitionLevels(s.definition, page.first, count, f.max_definition, c.size);
  }
  const std::int64_t n = to - from;
  const std::int64_t skip = from - page.first;
  if (page.encoding == kPlain) {
    const Bytes want = static_cast<Bytes>(count) * static_cast<Bytes>(c.value_bytes);
    if (s.values.size() != want) {
      throw thrift::DecodeError(std::to_string(s.values.size()) + " bytes of values, expected " +
                                std::to_string(want));
    }
    CopyValues(c, s.values.data() + skip * c.value_bytes, n, dst);
  } else {
    if (index_scratch.size() < static_cast<std::size_t>(n)) {
      index_scratch.resize(static_cast<std::size_t>(n));
    }
    const std::span<std::uint32_t> indices(index_scratch.data(), static_cast<std::size_t>(n));
    DecodeDictionaryIndices(s.values, skip, indices, dictionary.size());
    GatherValues(c, dictionary.values(), indices.data(), n, dst);
  }
}

}  // namespace dlbench::formats::parquet
