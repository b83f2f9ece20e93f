// The dictionary of a column chunk, for dlbench's Parquet reader: the PLAIN values of the chunk's
// dictionary page (decompressed, at the column's on-disk width), kept while the samples read come
// from that chunk, so that a dictionary-encoded page costs one dictionary read per chunk, not one
// per sample. pyarrow, which MLCommons DLIO calls, writes dictionary pages by default.
//
// The reader keeps one cache per column and lives as long as it; the values a gather reads
// (parquet_values.h) are valid until the next load().
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace dlbench::formats::parquet {

class DictionaryCache {
 public:
  // Whether the dictionary held is column chunk `chunk`'s (the reader's chunk number).
  bool holds(std::size_t chunk) const { return chunk_ == chunk; }

  // Decodes `page`, column chunk `chunk`'s whole dictionary page (header and body), whose codec
  // is `codec`: PLAIN values of `value_bytes` each, no more than the chunk's `chunk_values`
  // (the bound keeps a corrupt header from allocating gigabytes). Throws thrift::DecodeError
  // for a page that is not such a dictionary; the cache then holds no chunk.
  void load(std::size_t chunk, std::span<const std::byte> page, std::int32_t codec,
            std::int64_t chunk_values, int value_bytes);

  const std::byte* values() const { return values_.data(); }
  std::uint64_t size() const { return size_; }  // entries

 private:
  std::vector<std::byte> values_;
  std::uint64_t size_ = 0;
  std::size_t chunk_ = SIZE_MAX;
};

}  // namespace dlbench::formats::parquet
