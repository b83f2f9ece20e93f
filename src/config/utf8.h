#pragma once
// Where a text stops being UTF-8. A workload file and the overrides must be UTF-8 (YAML 1.2,
// section 5.2; PyYAML refuses anything else), because every output that copies their strings
// (summary.json, <rank>_output.json, config.yaml) must be too: a byte such as Latin-1's 0xE9
// left in a model name used to end a finished run with an internal error while writing JSON.
#include <cstddef>
#include <optional>
#include <string_view>

namespace dlbench::config {

// The offset of the first byte that does not start or continue a well-formed UTF-8 sequence
// (overlong forms, surrogates and code points above U+10FFFF included), or nothing.
std::optional<std::size_t> FirstInvalidUtf8(std::string_view text);

}  // namespace dlbench::config
