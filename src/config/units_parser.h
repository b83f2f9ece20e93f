// Quantities with units in dlbench's own keys: sizes (64GiB), rates (400MiB/s), times (2ms).
// Every function returns nullopt for text it cannot read; callers add the key to the error.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "util/units.h"

namespace dlbench::config {

// A byte count: a number with an optional unit B, KiB, MiB, GiB, TiB (binary) or KB, MB, GB,
// TB (decimal); blanks allowed before the unit. The result must be a whole number of bytes.
std::optional<Bytes> ParseSize(std::string_view text);

// A rate: a size followed by "/s" (400MiB/s). A bare number is bytes per second.
std::optional<BytesPerSecond> ParseRate(std::string_view text);

// A duration: a number with an optional unit s, ms, us (a bare number is seconds).
std::optional<Seconds> ParseDuration(std::string_view text);

// Canonical spellings that the parsers read back exactly (used by ToYaml; sizes: util/size_text.h
// FormatSize).
std::string FormatRate(BytesPerSecond rate);
std::string FormatDuration(Seconds seconds);

// The units each parser accepts, for error messages.
inline constexpr const char* kSizeUnits = "B, KiB, MiB, GiB, TiB, KB, MB, GB, TB";
inline constexpr const char* kDurationUnits = "s, ms, us";

}  // namespace dlbench::config
