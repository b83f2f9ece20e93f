// The row filter of an 8-bit grayscale png row as dlbench's per-file writer has libpng choose it
// (png_writer.cpp: PIL's set, None, Sub, Up and Paeth): per row the filter whose output bytes, read
// as signed, have the least sum of absolute values, the first in that order on a tie
// (libpng's png_write_find_filter). The assembled png pool (png_segment_pool.h) filters its noise
// rows with it, so that unfiltering an assembled file costs what unfiltering a per-file one costs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace dlbench::formats {

// PNG filter types (the byte before each row).
enum class PngFilter : std::uint8_t { kNone = 0, kSub = 1, kUp = 2, kAverage = 3, kPaeth = 4 };

// Writes the filter type and the filtered row into `out` (row.size() + 1 bytes) and returns the
// type. `previous`: the row above (row.size() bytes; zeros above the first row).
PngFilter FilterPngRow(std::span<const std::byte> previous, std::span<const std::byte> row,
                       std::span<std::byte> out);

}  // namespace dlbench::formats
