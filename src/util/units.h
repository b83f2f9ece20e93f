// Names for the quantities dlbench moves around, so that signatures say what a number is.
#pragma once

#include <cstdint>

namespace dlbench {

using Bytes = std::uint64_t;        // a count of bytes (sizes, offsets, totals)
using Seconds = double;             // a duration or a time point, in seconds
using BytesPerSecond = double;      // a rate
using SampleIndex = std::uint64_t;  // a global sample number within one split
using FileIndex = std::uint64_t;    // a global file number within one split
using Rank = int;                   // an MPI rank

inline constexpr Bytes KiB = 1024;
inline constexpr Bytes MiB = 1024 * KiB;
inline constexpr Bytes GiB = 1024 * MiB;

}  // namespace dlbench
