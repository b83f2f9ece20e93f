#include "formats/parquet/parquet_pages.h"

#include <algorithm>

#include "formats/parquet/thrift_compact.h"

namespace dlbench::formats::parquet {
namespace {

// Header scan: the first read of a page header, grown (×4) while it does not decode, up to
// kMaxPageHeader (statistics of numeric columns keep real headers under 100 bytes).
constexpr Bytes kHeaderRead = 256;
constexpr Bytes kMaxPageHeader = 1 * MiB;

// Decodes the page header at chunk.scan and records the page.
void ScanPage(ChunkPages& chunk, const PageFetch& fetch, Bytes* read) {
  const Bytes at = chunk.scan;
  const Bytes left = chunk.end - at;
  Bytes window = std::min(kHeaderRead, left);
  PageHeader h;
  std::size_t header_length = 0;
  for (;;) {
    const std::span<const std::byte> bytes = fetch(at, window);
    *read += window;
    try {
      h = DecodePageHeader(bytes, &header_length);
      break;
    } catch (const thrift::DecodeError& e) {
      if (window == left || window >= kMaxPageHeader) {
        throw PageError(at, std::string("corrupted page header: ") + e.what());
      }
      window = std::min({window * 4, left, kMaxPageHeader});
    }
  }
  if (h.compressed_page_size < 0 || h.uncompressed_page_size < 0 ||
      static_cast<Bytes>(h.compressed_page_size) > left - header_length) {
    throw PageError(at, "a page of " + std::to_string(header_length) + " + " +
                            std::to_string(h.compressed_page_size) +
                            " bytes runs past the column chunk's end at " +
                            std::to_string(chunk.end));
  }
  const Bytes length = header_length + static_cast<Bytes>(h.compressed_page_size);
  if (h.type == kDictionaryPage) {
    if (!h.dictionary_page_header || chunk.dictionary || !chunk.pages.empty()) {
      throw PageError(at, "a dictionary page without its header or after data pages");
    }
    chunk.dictionary = PageRef{at, length, 0, h.dictionary_page_header->num_values};
  } else if (h.type == kDataPage || h.type == kDataPageV2) {
    const std::int64_t count = h.data_page_header      ? h.data_page_header->num_values
                               : h.data_page_header_v2 ? h.data_page_header_v2->num_values
                                                       : -1;
    const std::int64_t first = chunk.found();
    if (count <= 0 || count > chunk.values - first) {
      throw PageError(at, "a data page of " + std::to_string(count) + " values after " +
                              std::to_string(first) + " of the column chunk's " +
                              std::to_string(chunk.values));
    }
    chunk.pages.push_back({at, length, first, count});
  } else if (h.type != kIndexPage) {
    throw PageError(at, "page type " + std::to_string(h.type));
  }
  chunk.scan = at + length;
  if (chunk.scan == chunk.end && chunk.found() != chunk.values) {
    throw PageError(at, "the column chunk's pages hold " + std::to_string(chunk.found()) +
                            " values, its metadata " + std::to_string(chunk.values));
  }
}

}  // namespace

void IndexPages(ChunkPages& chunk, std::int64_t size, std::int64_t rows,
                const std::vector<PageLocation>& pages, Bytes index_offset) {
  Bytes next = chunk.first_data_page;
  for (std::size_t p = 0; p < pages.size(); ++p) {
    const PageLocation& loc = pages[p];
    const bool rows_ok =
        p == 0 ? loc.first_row_index == 0
               : loc.first_row_index > pages[p - 1].first_row_index && loc.first_row_index < rows;
    if (!rows_ok || loc.offset < 0 || static_cast<Bytes>(loc.offset) != next ||
        loc.compressed_page_size <= 0) {
      throw PageError(index_offset, "page " + std::to_string(p) + " of the offset index (offset " +
                                        std::to_string(loc.offset) + ", " +
                                        std::to_string(loc.compressed_page_size) +
                                        " bytes, first row " + std::to_string(loc.first_row_index) +
                                        ") does not follow the pages before it");
    }
    next += static_cast<Bytes>(loc.compressed_page_size);
  }
  if (pages.empty() || next != chunk.end) {
    throw PageError(index_offset, "the offset index's pages do not cover the column chunk");
  }
  for (std::size_t p = 0; p < pages.size(); ++p) {
    const std::int64_t last = p + 1 < pages.size() ? pages[p + 1].first_row_index : rows;
    chunk.pages.push_back(
        {static_cast<Bytes>(pages[p].offset), static_cast<Bytes>(pages[p].compressed_page_size),
         pages[p].first_row_index * size, (last - pages[p].first_row_index) * size});
  }
  if (chunk.begin < chunk.first_data_page) {
    chunk.dictionary = PageRef{chunk.begin, chunk.first_data_page - chunk.begin, 0, 0};
  }
  chunk.scan = chunk.end;
}

PageRef LocatePage(ChunkPages& chunk, std::int64_t at, const PageFetch& fetch, Bytes* read) {
  while (chunk.found() <= at) {
    if (chunk.scan >= chunk.end) {
      throw PageError(chunk.begin,
                      "the column chunk's pages end before value " + std::to_string(at));
    }
    ScanPage(chunk, fetch, read);
  }
  const auto it = std::upper_bound(chunk.pages.begin(), chunk.pages.end(), at,
                                   [](std::int64_t v, const PageRef& p) { return v < p.first; });
  return *(it - 1);
}

}  // namespace dlbench::formats::parquet
