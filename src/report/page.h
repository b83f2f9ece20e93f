// The frame every HTML page of `dlbench report` shares: the head with its style, and the end
// with the small script that marks every chart drawn (for the report's Chromium test).
#pragma once

#include <string>

namespace dlbench::report {

// "<!DOCTYPE html>...<body>" with `title` (escaped) as the page title and its first heading.
std::string PageStart(const std::string& title);
// The script and "</body></html>".
std::string PageEnd();

}  // namespace dlbench::report
