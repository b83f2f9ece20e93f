#include "report/svg_charts.h"

#include <gtest/gtest.h>

namespace dlbench::report {
namespace {

std::size_t Count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(SvgCharts, EscapesText) {
  EXPECT_EQ(Escape("a<b & \"c\">"), "a&lt;b &amp; &quot;c&quot;&gt;");
  const std::string svg = BarChart("<script>", "s", {"x&y"}, {{"n\"", {}, {1}}});
  EXPECT_EQ(svg.find("<script>"), std::string::npos);
  EXPECT_NE(svg.find("x&amp;y"), std::string::npos);
}

TEST(SvgCharts, OneMarkPerDatum) {
  EXPECT_EQ(Count(LineChart("t", "x", "y", {{"a", {1, 2, 3}, {4, 5, 6}}, {"b", {1, 2}, {1, 1}}}),
                  "class=\"mark\""),
            5u);
  EXPECT_EQ(Count(BarChart("t", "y", {"r0", "r1"}, {{"a", {}, {1, 2}}, {"b", {}, {3, 0}}}),
                  "class=\"mark\""),
            4u);
  EXPECT_EQ(Count(Timeline("t", "s", {"rank 0"}, {"load", "compute"}, {{0, 0, 1, 0}, {0, 1, 2, 1}}),
                  "class=\"mark\""),
            2u);
}

TEST(SvgCharts, LongSeriesAreOneLineWithFewTicks) {
  Series long_series{"bandwidth", {}, {}};
  for (int i = 0; i < 300; ++i) {
    long_series.x.push_back(i);
    long_series.y.push_back(i % 7);
  }
  const std::string svg = LineChart("t", "s", "MiB/s", {long_series, {"short", {0, 299}, {1, 2}}});
  EXPECT_EQ(Count(svg, "class=\"mark\""), 3u);  // the long line, and the short one's two dots
  EXPECT_EQ(Count(svg, "<polyline class=\"mark\""), 1u);
  EXPECT_EQ(Count(svg, "y=\"252\" text-anchor=\"middle\">"), 12u);  // the x axis' ticks
}

// The step timeline's axis was cut in quarters of the last step's end: ticks 0.04363, 0.08727.
TEST(SvgCharts, TimelineTicksAreRoundNumbers) {
  const std::string svg =
      Timeline("t", "seconds", {"rank 0"}, {"load"}, {{0, 0, 0.1, 0}, {0, 0.1, 0.07452, 0}});
  for (const char* tick :
       {">0</text>", ">0.05</text>", ">0.1</text>", ">0.15</text>", ">0.2</text>"}) {
    EXPECT_EQ(Count(svg, tick), 1u) << tick << "\n" << svg;
  }
  EXPECT_EQ(Count(svg, "y=\"252\" text-anchor=\"middle\">"), 5u);  // the x axis' ticks
  EXPECT_EQ(svg.find("0.04363"), std::string::npos);
  // A longer run: 0 .. 40 s in steps of 10.
  const std::string longer = Timeline("t", "seconds", {"rank 0"}, {"load"}, {{0, 0, 37.2, 0}});
  EXPECT_EQ(Count(longer, ">40</text>"), 1u) << longer;
  EXPECT_EQ(Count(longer, ">30</text>"), 1u);
}

TEST(SvgCharts, EmptyAndDegenerateInputsStillGiveWellFormedSvg) {
  for (const std::string& svg :
       {LineChart("t", "x", "y", {}), BarChart("t", "y", {}, {}), Timeline("t", "s", {}, {}, {}),
        LineChart("t", "x", "y", {{"flat", {1, 1}, {0, 0}}}),
        BarChart("t", "y", {"a"}, {{"negative", {}, {-3}}})}) {
    EXPECT_EQ(svg.find("nan"), std::string::npos) << svg;
    EXPECT_EQ(svg.find("inf"), std::string::npos) << svg;
    EXPECT_EQ(Count(svg, "<svg"), 1u);
    EXPECT_EQ(Count(svg, "</svg>"), 1u);
  }
}

}  // namespace
}  // namespace dlbench::report
