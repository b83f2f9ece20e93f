// The exact length in bits of a block's baseline Huffman coding, as libjpeg's encoder writes it
// (jchuff.c: the DC difference's category code and its bits, then per nonzero AC coefficient in
// zigzag order a (run, category) code — with a ZRL code per 16 zeros — and its bits, EOB unless
// the last coefficient is nonzero), counted from the code lengths of the tables the encoder
// uses. The assembled jpeg pool (jpeg_segment_pool.h) chooses with it the runs of blocks whose
// coding is a whole number of bytes.
#pragma once

#include <array>
#include <cstdint>

#include "formats/image/jpeg_errors.h"

namespace dlbench::formats {

class JpegBitCounter {
 public:
  // The DC and AC tables of the scan's one component. Throws InternalError for a table whose
  // counts run past its 256 symbols.
  JpegBitCounter(const JHUFF_TBL& dc, const JHUFF_TBL& ac);

  // Bits of the DC difference `diff` (the block's quantised DC less the previous block's, or
  // less 0 at the start of a scan).
  std::uint32_t dc_bits(int diff) const;
  // Bits of the AC coefficients of `block` (quantised, in natural order, as JBLOCK holds them).
  std::uint32_t ac_bits(const JCOEF* block) const;

 private:
  // Code length per symbol; 0 where the table has no code (InternalError when it is needed).
  std::array<std::uint8_t, 256> dc_{};
  std::array<std::uint8_t, 256> ac_{};
};

}  // namespace dlbench::formats
