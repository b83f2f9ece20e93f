#include "formats/parquet/parquet_dictionary.h"

#include <string>

#include "formats/parquet/parquet_codec.h"
#include "formats/parquet/parquet_metadata.h"
#include "formats/parquet/thrift_compact.h"
#include "util/units.h"

namespace dlbench::formats::parquet {

void DictionaryCache::load(std::size_t chunk, std::span<const std::byte> page, std::int32_t codec,
                           std::int64_t chunk_values, int value_bytes) {
  chunk_ = SIZE_MAX;
  std::size_t header_length = 0;
  const PageHeader h = DecodePageHeader(page, &header_length);
  if (h.type != kDictionaryPage || !h.dictionary_page_header) {
    throw thrift::DecodeError("page type " + std::to_string(h.type) +
                              " where the dictionary page should be");
  }
  const DictionaryPageHeader& d = *h.dictionary_page_header;
  if (h.compressed_page_size < 0 ||
      header_length + static_cast<Bytes>(h.compressed_page_size) != page.size()) {
    throw thrift::DecodeError("dictionary page header says " + std::to_string(header_length) +
                              " + " + std::to_string(h.compressed_page_size) +
                              " bytes, the column chunk " + std::to_string(page.size()));
  }
  if (d.encoding != kPlain && d.encoding != kPlainDictionary) {
    throw thrift::DecodeError("dictionary encoding " + std::to_string(d.encoding) +
                              " (PLAIN expected)");
  }
  if (d.num_values < 0 || d.num_values > chunk_values || h.uncompressed_page_size < 0 ||
      static_cast<Bytes>(h.uncompressed_page_size) !=
          static_cast<Bytes>(d.num_values) * static_cast<Bytes>(value_bytes)) {
    throw thrift::DecodeError("a dictionary of " + std::to_string(d.num_values) + " values in " +
                              std::to_string(h.uncompressed_page_size) + " bytes");
  }
  values_.resize(static_cast<std::size_t>(h.uncompressed_page_size));
  Decompress(codec, page.subspan(header_length), values_);
  size_ = static_cast<std::uint64_t>(d.num_values);
  chunk_ = chunk;
}

}  // namespace dlbench::formats::parquet
