// The assembled png pool's row filters (png_row_filter.h) are libpng's: every row of a per-file
// png (PngWriter, which has libpng choose among None, Sub, Up and Paeth) is the filter and bytes
// FilterPngRow gives for the same pixels.
#include "formats/image/png_row_filter.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <array>
#include <string>
#include <vector>

#include "format_files_fixture.h"
#include "format_test_support.h"
#include "formats/image/png_reader.h"
#include "formats/image/png_writer.h"
#include "support/expect_error.h"
#include "util/error.h"

namespace dlbench::formats {
namespace {

std::uint32_t U32(const std::string& s, std::size_t at) {
  return static_cast<std::uint32_t>(static_cast<unsigned char>(s[at])) << 24 |
         static_cast<std::uint32_t>(static_cast<unsigned char>(s[at + 1])) << 16 |
         static_cast<std::uint32_t>(static_cast<unsigned char>(s[at + 2])) << 8 |
         static_cast<std::uint32_t>(static_cast<unsigned char>(s[at + 3]));
}

// The filtered rows of a png file: its IDAT chunks' data, inflated.
std::vector<std::byte> FilteredRows(const std::string& png, std::size_t size) {
  std::string zlib_data;
  for (std::size_t at = 8; at + 8 <= png.size();) {
    const std::uint32_t length = U32(png, at);
    if (png.compare(at + 4, 4, "IDAT") == 0) zlib_data += png.substr(at + 8, length);
    at += 12 + length;
  }
  std::vector<std::byte> rows(size);
  uLongf out = size;
  EXPECT_EQ(uncompress(reinterpret_cast<Bytef*>(rows.data()), &out,
                       reinterpret_cast<const Bytef*>(zlib_data.data()), zlib_data.size()),
            Z_OK);
  EXPECT_EQ(out, size);
  return rows;
}

class PngRowFilter : public test::FormatFiles<PngReader> {
 protected:
  PngRowFilter() : FormatFiles("img_0_of_1.png", 3) {}
};

TEST_F(PngRowFilter, ChoosesWhatLibpngChoosesForThePerFileWriter) {
  // Noise of several widths, one and seven pixels wide among them.
  for (const std::vector<std::int64_t>& dims :
       std::vector<std::vector<std::int64_t>>{{37, 300}, {20, 568}, {9, 7}, {6, 1}}) {
    const FileSpec spec = make_spec(dims, 1);
    test::WriteFile(PngWriter(), spec, test::RandomContent());
    const auto width = static_cast<std::size_t>(dims[1]);
    const auto height = static_cast<std::size_t>(dims[0]);
    const std::vector<std::byte> theirs =
        FilteredRows(test::ReadAll(spec.path), height * (width + 1));
    std::vector<std::byte> pixels(height * width);
    test::RandomContent().fill(spec.file_index, 0, pixels);
    std::vector<std::byte> previous(width);
    std::vector<std::byte> ours(width + 1);
    std::array<int, 5> used{};
    for (std::size_t r = 0; r < height; ++r) {
      const std::span<const std::byte> row = std::span(pixels).subspan(r * width, width);
      ++used[static_cast<std::size_t>(FilterPngRow(previous, row, ours))];
      EXPECT_TRUE(std::equal(ours.begin(), ours.end(),
                             theirs.begin() + static_cast<std::ptrdiff_t>(r * (width + 1))))
          << dims[0] << "x" << dims[1] << " row " << r << ": filter "
          << std::to_integer<int>(ours[0]) << ", libpng's "
          << std::to_integer<int>(theirs[r * (width + 1)]);
      previous.assign(row.begin(), row.end());
    }
    if (width == 300) {  // noise: every filter of the set wins some rows, Average none
      EXPECT_GT(used[0] * used[1] * used[2] * used[4], 0);
      EXPECT_EQ(used[3], 0);
    }
  }
}

TEST(PngRowFilterArguments, RefusesRowsOfDifferentWidths) {
  std::vector<std::byte> previous(4);
  std::vector<std::byte> row(5);
  std::vector<std::byte> out(6);
  dlbench::test::ExpectError([&] { FilterPngRow(previous, row, out); }, ExitCode::kInternal,
                             {"png row filter: rows of different widths"});
}

}  // namespace
}  // namespace dlbench::formats
