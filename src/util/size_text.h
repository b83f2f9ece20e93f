// Sizes, rates and durations as text: the one home for how dlbench spells them.
//  * Describe*: for people (notes, messages): three or four significant digits and a binary unit.
//  * FormatSize: the exact spelling a configuration file reads back ("64GiB", "1536B").
//  * FormatBytesExact / FormatGiB: the checkpoint plan's columns.
// Pure functions, safe from any thread.
#pragma once

#include <string>

#include "util/units.h"

namespace dlbench {

// "1.5 GiB", "400 MiB/s", "2 ms".
std::string DescribeBytes(Bytes bytes);
std::string DescribeRate(BytesPerSecond rate);
std::string DescribeSeconds(Seconds seconds);

// The largest binary unit that divides `bytes` exactly: 64 GiB -> "64GiB", 1536 -> "1536B".
std::string FormatSize(Bytes bytes);

// 5682508791808 -> "5,682,508,791,808".
std::string FormatBytesExact(Bytes bytes);
// Bytes in GiB (2^30) with two decimals: "5292.25 GiB".
std::string FormatGiB(Bytes bytes);

}  // namespace dlbench
