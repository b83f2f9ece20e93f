// XML (and HTML) text, the one home for escaping text into markup dlbench writes by hand: the
// report's SVG and HTML (report/svg_charts.cpp) and the bodies of S3 requests (s3/client.cpp).
#pragma once

#include <string>
#include <string_view>

namespace dlbench {

// `text` with & < > " escaped as &amp; &lt; &gt; &quot;, safe in element text and in
// double-quoted attribute values; every other byte copied.
std::string XmlEscape(std::string_view text);

}  // namespace dlbench
