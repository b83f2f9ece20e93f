// JPEG at the coefficient level, for the assembled jpeg pool (jpeg_segment_pool.h): the tables
// of dlbench's jpeg parameters (jpeg_parameters.h), 8x8 pixel blocks transformed and quantised
// with them, and quantised blocks written by libjpeg-turbo as a baseline jpeg with the same
// header and tables as a per-file jpeg, without restart markers.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "formats/image/jpeg_errors.h"

namespace dlbench::formats {

// One 8x8 block's quantised coefficients in natural (row-major) order, as a JBLOCK holds them.
using JpegBlock = std::array<JCOEF, 64>;

// The tables libjpeg codes a grayscale image with under dlbench's jpeg parameters.
struct JpegTables {
  JHUFF_TBL dc{};
  JHUFF_TBL ac{};
  std::array<std::uint16_t, 64> quant{};  // natural order
};

// Throws InternalError for a libjpeg failure.
JpegTables StandardJpegTables();

// The quantised forward DCT of 8x8 blocks of pixels with a quantisation table: the transform of
// the JPEG standard (ITU T.81 A.3.3) on the level-shifted samples, each coefficient rounded to the
// nearest quantisation step (half away from zero). libjpeg-turbo's integer DCT approximates the
// same transform, so its coefficients differ from these by a step now and then.
class JpegDct {
 public:
  explicit JpegDct(const std::array<std::uint16_t, 64>& quant);
  // `pixels`: 64 8-bit samples, row by row.
  JpegBlock operator()(std::span<const std::byte, 64> pixels) const;

 private:
  std::array<float, 64> scale_{};  // 1 / quant
};

// The baseline jpeg of `blocks` laid out `width` blocks to a row (blocks.size() a multiple of
// `width`), written by libjpeg with dlbench's jpeg parameters and no restart interval. Throws
// InternalError for a codec failure.
std::vector<std::byte> EncodeCoefficients(std::span<const JpegBlock> blocks, int width);

}  // namespace dlbench::formats
