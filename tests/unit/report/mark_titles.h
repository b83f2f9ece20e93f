// Reading the report's charts back in tests: the tooltips of a chart's marks.
#pragma once

#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <string>

namespace dlbench::report {

// The values of the marks of the chart titled `title` in `html`, as the marks' tooltips say them.
inline std::set<std::string> MarkTitles(const std::string& html, const std::string& title) {
  const std::size_t start = html.find("<title>" + title + "</title>");
  EXPECT_NE(start, std::string::npos) << "no chart " << title;
  if (start == std::string::npos) return {};
  const std::string figure = html.substr(start, html.find("</figure>", start) - start);
  static const std::regex kMark(R"(class="mark"[^>]*><title>([^<]*)</title>)");
  std::set<std::string> titles;
  for (std::sregex_iterator it(figure.begin(), figure.end(), kMark), end; it != end; ++it)
    titles.insert((*it)[1].str());
  return titles;
}

}  // namespace dlbench::report
