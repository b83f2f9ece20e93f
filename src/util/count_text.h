// A count and the noun it counts, in agreement: "1 file", "2 files", "0 files". The one home for
// how dlbench prints "N things" (not "1 files", nor "file(s)"). Pure functions, safe from any
// thread.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace dlbench {

// `singular` for a count of 1, else `plural` (default: `singular` + "s").
std::string CountOf(std::uint64_t count, std::string_view singular, std::string_view plural = {});

}  // namespace dlbench
