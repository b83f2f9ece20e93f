#include "report/svg_charts.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "util/xml_text.h"

namespace dlbench::report {
namespace {

constexpr double kWidth = 640, kHeight = 280;
constexpr double kLeft = 64, kRight = 150, kTop = 34, kBottom = 44;  // kRight holds the legend
constexpr std::size_t kMaxTicks = 12;         // x values labelled one by one up to this many
constexpr std::size_t kMaxDots = 60;          // points of a series drawn as dots (with their value)
constexpr std::size_t kMaxUprightLabels = 6;  // bar charts with more categories slant them
const char* const kColours[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728",
                                "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"};

const char* Colour(std::size_t i) { return kColours[i % (sizeof kColours / sizeof *kColours)]; }

struct Scale {
  double min = 0, max = 1;
  double from = 0, to = 1;  // pixels
  double operator()(double v) const {
    return max == min ? from : from + (v - min) / (max - min) * (to - from);
  }
};

// [0, max] widened to a round top, or [min, max] when values go below 0.
std::pair<double, double> Range(const std::vector<double>& values) {
  double lo = 0, hi = 0;
  for (double v : values) {
    if (!std::isfinite(v)) continue;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  if (hi == lo) hi = lo + 1;
  const double step = std::pow(10.0, std::floor(std::log10(hi - lo)));
  return {std::floor(lo / step) * step, std::ceil(hi / step) * step};
}

// The smallest step of 1, 2 or 5 times a power of ten that cuts `span` into at most `intervals`
// parts: tick labels read 0.02, 0.04, not 0.04363, 0.08727.
double NiceStep(double span, int intervals) {
  if (!(span > 0) || !std::isfinite(span)) return 1;
  const double raw = span / intervals;
  const double power = std::pow(10.0, std::floor(std::log10(raw)));
  for (const double factor : {1.0, 2.0, 5.0, 10.0}) {
    if (factor * power >= raw * (1 - 1e-12)) return factor * power;
  }
  return 10 * power;
}

std::string Open(const std::string& title) {
  return "<figure class=\"chart\"><svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 " +
         Num(kWidth) + " " + Num(kHeight) + "\" width=\"" + Num(kWidth) + "\" height=\"" +
         Num(kHeight) + "\" role=\"img\"><title>" + Escape(title) + "</title><text x=\"" +
         Num(kLeft) + "\" y=\"20\" class=\"title\">" + Escape(title) + "</text>";
}

std::string Close() { return "</svg></figure>\n"; }

std::string YAxis(const Scale& y, const std::string& label) {
  std::string svg;
  for (int i = 0; i <= 4; ++i) {
    const double v = y.min + (y.max - y.min) * i / 4;
    svg += "<line class=\"grid\" x1=\"" + Num(kLeft) + "\" x2=\"" + Num(kWidth - kRight) +
           "\" y1=\"" + Num(y(v)) + "\" y2=\"" + Num(y(v)) + "\"/><text class=\"tick\" x=\"" +
           Num(kLeft - 6) + "\" y=\"" + Num(y(v) + 4) + "\" text-anchor=\"end\">" + Num(v) +
           "</text>";
  }
  svg += "<text class=\"axis\" transform=\"translate(14 " + Num((kTop + kHeight - kBottom) / 2) +
         ") rotate(-90)\" text-anchor=\"middle\">" + Escape(label) + "</text>";
  return svg;
}

std::string XLabel(const std::string& label) {
  return "<text class=\"axis\" x=\"" + Num((kLeft + kWidth - kRight) / 2) + "\" y=\"" +
         Num(kHeight - 6) + "\" text-anchor=\"middle\">" + Escape(label) + "</text>";
}

std::string Legend(const std::vector<std::string>& names) {
  std::string svg;
  for (std::size_t i = 0; i < names.size(); ++i) {
    const double y = kTop + 8 + 18.0 * static_cast<double>(i);
    svg += "<rect x=\"" + Num(kWidth - kRight + 12) + "\" y=\"" + Num(y - 9) +
           "\" width=\"10\" height=\"10\" fill=\"" + Colour(i) + "\"/><text class=\"tick\" x=\"" +
           Num(kWidth - kRight + 26) + "\" y=\"" + Num(y) + "\">" + Escape(names[i]) + "</text>";
  }
  return svg;
}

}  // namespace

std::string Escape(const std::string& text) { return XmlEscape(text); }

std::string LineChart(const std::string& title, const std::string& x_label,
                      const std::string& y_label, const std::vector<Series>& series) {
  std::vector<double> xs, ys;
  std::vector<std::string> names;
  for (const Series& s : series) {
    xs.insert(xs.end(), s.x.begin(), s.x.end());
    ys.insert(ys.end(), s.y.begin(), s.y.end());
    names.push_back(s.name);
  }
  const auto [x_min, x_max] = std::pair{xs.empty() ? 0.0 : *std::min_element(xs.begin(), xs.end()),
                                        xs.empty() ? 1.0 : *std::max_element(xs.begin(), xs.end())};
  const auto [y_min, y_max] = Range(ys);
  const Scale x{x_min, x_max, kLeft + 10, kWidth - kRight - 10};
  const Scale y{y_min, y_max, kHeight - kBottom, kTop};
  std::string svg = Open(title) + YAxis(y, y_label) + XLabel(x_label);
  std::sort(xs.begin(), xs.end());
  xs.erase(std::unique(xs.begin(), xs.end()), xs.end());
  if (xs.size() > kMaxTicks) {  // evenly spaced ticks instead of one per value
    for (std::size_t i = 0; i < kMaxTicks; ++i)
      xs[i] = x_min + (x_max - x_min) * static_cast<double>(i) / (kMaxTicks - 1);
    xs.resize(kMaxTicks);
  }
  for (double v : xs) {
    svg += "<text class=\"tick\" x=\"" + Num(x(v)) + "\" y=\"" + Num(kHeight - kBottom + 16) +
           "\" text-anchor=\"middle\">" + Num(v) + "</text>";
  }
  for (std::size_t i = 0; i < series.size(); ++i) {
    const Series& s = series[i];
    const bool dots = s.x.size() <= kMaxDots;
    std::string points;
    for (std::size_t k = 0; k < s.x.size() && k < s.y.size(); ++k) {
      points += Num(x(s.x[k])) + "," + Num(y(s.y[k])) + " ";
      if (!dots) continue;
      svg += "<circle class=\"mark\" cx=\"" + Num(x(s.x[k])) + "\" cy=\"" + Num(y(s.y[k])) +
             "\" r=\"3.5\" fill=\"" + Colour(i) + "\"><title>" + Escape(s.name) + " at " +
             Num(s.x[k]) + ": " + Num(s.y[k]) + "</title></circle>";
    }
    svg += std::string("<polyline") + (dots ? "" : " class=\"mark\"") +
           " fill=\"none\" stroke-width=\"2\" stroke=\"" + Colour(i) + "\" points=\"" + points +
           "\">" + (dots ? "" : "<title>" + Escape(s.name) + "</title>") + "</polyline>";
  }
  return svg + Legend(names) + Close();
}

std::string BarChart(const std::string& title, const std::string& y_label,
                     const std::vector<std::string>& categories,
                     const std::vector<Series>& series) {
  std::vector<double> ys;
  std::vector<std::string> names;
  for (const Series& s : series) {
    ys.insert(ys.end(), s.y.begin(), s.y.end());
    names.push_back(s.name);
  }
  const auto [y_min, y_max] = Range(ys);
  const Scale y{y_min, y_max, kHeight - kBottom, kTop};
  std::string svg = Open(title) + YAxis(y, y_label);
  const double group =
      (kWidth - kRight - kLeft) / static_cast<double>(std::max<std::size_t>(1, categories.size()));
  const double bar = group * 0.8 / static_cast<double>(std::max<std::size_t>(1, series.size()));
  for (std::size_t c = 0; c < categories.size(); ++c) {
    const double x0 = kLeft + group * static_cast<double>(c) + group * 0.1;
    if (categories.size() > kMaxUprightLabels) {  // slanted, so that neighbours do not overlap
      svg += "<text class=\"tick\" text-anchor=\"end\" transform=\"translate(" +
             Num(x0 + group * 0.4 + 4) + " " + Num(kHeight - kBottom + 12) + ") rotate(-30)\">" +
             Escape(categories[c]) + "</text>";
    } else {
      svg += "<text class=\"tick\" x=\"" + Num(x0 + group * 0.4) + "\" y=\"" +
             Num(kHeight - kBottom + 16) + "\" text-anchor=\"middle\">" + Escape(categories[c]) +
             "</text>";
    }
    for (std::size_t i = 0; i < series.size(); ++i) {
      if (c >= series[i].y.size() || !std::isfinite(series[i].y[c])) continue;
      const double v = series[i].y[c];
      const double top = y(std::max(v, 0.0)), bottom = y(std::min(v, 0.0));
      svg += "<rect class=\"mark\" x=\"" + Num(x0 + bar * static_cast<double>(i)) + "\" y=\"" +
             Num(top) + "\" width=\"" + Num(bar * 0.9) + "\" height=\"" +
             Num(std::max(bottom - top, 0.5)) + "\" fill=\"" + Colour(i) + "\"><title>" +
             Escape(series[i].name + ", " + categories[c]) + ": " + Num(v) + "</title></rect>";
    }
  }
  return svg + Legend(names) + Close();
}

std::string Timeline(const std::string& title, const std::string& x_label,
                     const std::vector<std::string>& rows, const std::vector<std::string>& kinds,
                     const std::vector<Segment>& segments) {
  double end = 0;
  for (const Segment& s : segments) end = std::max(end, s.start + s.length);
  // The axis ends on a tick: a multiple of a round step.
  const double step = NiceStep(end > 0 ? end : 1, 4);
  const double ticks = std::max(1.0, std::ceil(end / step - 1e-9));
  const Scale x{0, ticks * step, kLeft, kWidth - kRight};
  const double row_height =
      (kHeight - kTop - kBottom) / static_cast<double>(std::max<std::size_t>(1, rows.size()));
  std::string svg = Open(title) + XLabel(x_label);
  for (int i = 0; i <= static_cast<int>(ticks); ++i) {
    const double v = step * i;
    svg += "<text class=\"tick\" x=\"" + Num(x(v)) + "\" y=\"" + Num(kHeight - kBottom + 16) +
           "\" text-anchor=\"middle\">" + Num(v) + "</text>";
  }
  for (std::size_t r = 0; r < rows.size(); ++r) {
    svg += "<text class=\"tick\" x=\"" + Num(kLeft - 6) + "\" y=\"" +
           Num(kTop + row_height * (static_cast<double>(r) + 0.5) + 4) + "\" text-anchor=\"end\">" +
           Escape(rows[r]) + "</text>";
  }
  for (const Segment& s : segments) {
    svg += "<rect class=\"mark\" x=\"" + Num(x(s.start)) + "\" y=\"" +
           Num(kTop + row_height * static_cast<double>(s.row) + 2) + "\" width=\"" +
           Num(std::max(x(s.start + s.length) - x(s.start), 0.3)) + "\" height=\"" +
           Num(row_height - 4) + "\" fill=\"" + Colour(s.kind) + "\"/>";
  }
  return svg + Legend(kinds) + Close();
}

std::string Num(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", value);
  return text;
}

}  // namespace dlbench::report
