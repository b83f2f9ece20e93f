// Small inline-SVG charts for the HTML report: no script, no external reference. Every drawn
// datum carries class "mark", which the report's check (and its Chromium test) counts.
#pragma once

#include <string>
#include <vector>

namespace dlbench::report {

struct Series {
  std::string name;
  std::vector<double> x;  // line charts only
  std::vector<double> y;
};

// Lines with dots, one per series, over a shared x axis. A series of more than 60 points is drawn
// as a bare line (the line is its mark); more than 12 distinct x values get evenly spaced ticks.
std::string LineChart(const std::string& title, const std::string& x_label,
                      const std::string& y_label, const std::vector<Series>& series);

// Grouped bars: one group per category, one bar per series (series.y[i] for category i).
std::string BarChart(const std::string& title, const std::string& y_label,
                     const std::vector<std::string>& categories, const std::vector<Series>& series);

// Horizontal timeline: one row per label, segments of kinds (legend = kind names). The axis runs
// from 0 to a round end, ticked at multiples of 1, 2 or 5 times a power of ten.
struct Segment {
  std::size_t row = 0;
  double start = 0;
  double length = 0;
  std::size_t kind = 0;
};
std::string Timeline(const std::string& title, const std::string& x_label,
                     const std::vector<std::string>& rows, const std::vector<std::string>& kinds,
                     const std::vector<Segment>& segments);

// Escapes &, <, >, " for HTML text and attributes.
std::string Escape(const std::string& text);

// A number for labels and tables: printf's %.4g.
std::string Num(double value);

}  // namespace dlbench::report
