// Page discovery for dlbench's Parquet reader: where the data pages of a column chunk are and
// which of the chunk's value slots (levels: rows · size, nulls included) each holds.
//
// Two ways, as readers do: from the chunk's offset index (the "page index" dlbench and pyarrow
// write), decoded by the reader at open and handed to IndexPages; or, for a chunk without one,
// by scanning page headers from the chunk's start, lazily, as far as the samples asked for need
// (LocatePage, what a reader without a page index does). The dictionary page, when the chunk has
// one, is found the same way.
//
// A ChunkPages belongs to the reader of one file and lives as long as it; the bytes a PageFetch
// returns are only looked at until the next call. Every inconsistency throws PageError with the
// file offset it concerns; the reader turns it into Error(kIo) naming the file and the column.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "formats/parquet/parquet_metadata.h"
#include "util/units.h"

namespace dlbench::formats::parquet {

// One page of a column chunk: where it is and which of the chunk's value slots it holds.
struct PageRef {
  Bytes offset = 0;        // of the page header
  Bytes length = 0;        // header + body
  std::int64_t first = 0;  // its first value slot in the chunk
  std::int64_t count = 0;  // its value slots
};

// The pages of one column chunk (a column in a row group), as far as they are known.
struct ChunkPages {
  Bytes begin = 0;  // first page: the dictionary page when there is one
  Bytes end = 0;
  Bytes first_data_page = 0;  // ColumnMetaData.data_page_offset
  std::int32_t codec = kUncompressed;
  std::int64_t values = 0;  // value slots: rows · size
  std::optional<PageRef> dictionary;
  std::vector<PageRef> pages;  // the data pages found so far
  Bytes scan = 0;              // where the next page header is; end once every page is found

  std::int64_t found() const { return pages.empty() ? 0 : pages.back().first + pages.back().count; }
};

// What is wrong with a column chunk's pages, and at which offset of the file.
class PageError : public std::runtime_error {
 public:
  PageError(Bytes offset, const std::string& what) : std::runtime_error(what), offset_(offset) {}
  Bytes offset() const { return offset_; }

 private:
  Bytes offset_;
};

// [offset, offset + length) of the file, valid until the next call; throws (Error(kIo)) when the
// file holds fewer bytes there.
using PageFetch = std::function<std::span<const std::byte>(Bytes offset, Bytes length)>;

// Checks an offset index's pages (contiguous from the first data page to the chunk's end, first
// rows increasing from 0 and below the group's `rows`) and takes them as the chunk's pages, every
// page found: pages that start rows (what writers of page indexes guarantee) of `size` values
// each hold (rows · size) slots; each page's header confirms its count when read. The chunk's
// bytes before its first data page are its dictionary page. `index_offset`: where the index is,
// for errors.
void IndexPages(ChunkPages& chunk, std::int64_t size, std::int64_t rows,
                const std::vector<PageLocation>& pages, Bytes index_offset);

// The page holding value slot `at` of the chunk, scanning page headers through `fetch` as far as
// needed; adds the bytes fetched to *read.
PageRef LocatePage(ChunkPages& chunk, std::int64_t at, const PageFetch& fetch, Bytes* read);

}  // namespace dlbench::formats::parquet
