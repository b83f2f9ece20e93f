// One line of a DFTracer v1 trace (`{"id":…,"name":…,"cat":…,"pid":…,"tid":…,"ts":…,"dur":…,
// "ph":"X","args":{…}}`) parsed without allocating: a single pass over the JSON object that keeps
// the fields the summary needs and checks the rest is well-formed JSON. Strings are views into the
// line (escapes left as written: event names and categories have none).
#pragma once

#include <cstdint>
#include <string_view>

namespace dlbench::trace_summary {

struct EventLine {
  std::string_view name, cat, ph;
  double ts = 0, dur = 0;  // microseconds
  bool has_ts = false, has_dur = false;
  // args: bytes moved (`ret` of an I/O call, −1 on failure), requested `size`, a sample's
  // `image_size`; metadata events' `name` and `value` (a string's contents, or a number's text).
  double ret = 0, size = 0, image_size = 0;
  bool has_ret = false, has_size = false, has_image_size = false;
  std::string_view arg_name, arg_value;
};

// Parses `line` into `event` (reset first). False if the line is not one well-formed JSON object
// (a trailing comma after it is accepted, as Chrome's JSON array allows).
bool ParseEventLine(std::string_view line, EventLine& event);

}  // namespace dlbench::trace_summary
