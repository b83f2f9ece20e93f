// JSON string literals, the one home for escaping text into JSON that dlbench writes by hand
// (without building a document): the per-file counters (workflow/run_counters.cpp) and the
// trace lines (trace/event_formatter.cpp).
//
// The escaping is nlohmann::json's dump() with ensure_ascii off, byte for byte: '"' and '\\'
// escaped, \b \f \n \r \t as such, every other byte below 0x20 as \u00xx (lower-case hex), all
// else, DEL and bytes of UTF-8 sequences included, copied. Unlike dump(), the bytes are not
// checked to be UTF-8: a caller that must refuse or repair invalid UTF-8 does so itself.
#pragma once

#include <string>
#include <string_view>

namespace dlbench {

// Appends `text` to `out` as a JSON string: quotes and escapes.
void AppendJsonString(std::string& out, std::string_view text);

}  // namespace dlbench
