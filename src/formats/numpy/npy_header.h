// The NPY array header: encoding as numpy 1.24 writes it and parsing
// of any version 1.0/2.0/3.0 header.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "util/units.h"

namespace dlbench::formats::npy {

inline constexpr Bytes kPreambleBytes = 10;  // magic (6) + version (2) + HLEN (2) in v1
inline constexpr Bytes kAlignment = 64;

// The whole header (magic to '\n'), byte-identical to numpy.save: version 1.0 unless the dict
// needs more than 65535 bytes.
std::string Encode(std::string_view descr, const std::vector<std::int64_t>& shape);

struct Header {
  std::string descr;
  bool fortran_order = false;
  std::vector<std::int64_t> shape;
  Bytes data_offset = 0;  // bytes of the whole header
};

// Bytes needed to know the header's total length: the preamble of any version (12).
inline constexpr Bytes kProbeBytes = 12;
// The longest header accepted. A version 2.0/3.0 length field can claim 4 GiB, which readers
// would otherwise read or inflate into memory; numpy's own reader refuses headers longer than
// 10000 bytes by default, and numpy writes a header longer than 65535 only for a dict that size.
inline constexpr Bytes kMaxHeaderBytes = Bytes{1} << 20;
// The most dimensions a shape may have (numpy 2's NPY_MAXDIMS; numpy 1 allows 32). A header of
// 1 MiB could list half a million, all of them printed in the error that its shape is not the
// expected one (a message of 1.5 MB on one line).
inline constexpr std::size_t kMaxDims = 64;
// The total header length from the first kProbeBytes bytes; throws Error(kIo) naming `where`,
// also for a length beyond kMaxHeaderBytes.
Bytes HeaderLength(std::string_view probe, const std::string& where);
// Parses a complete header; throws Error(kIo) naming `where` and what was expected.
Header Parse(std::string_view bytes, const std::string& where);

// "(3, 5, 2)" as numpy spells shapes in messages and headers.
std::string ShapeText(const std::vector<std::int64_t>& shape);

}  // namespace dlbench::formats::npy
