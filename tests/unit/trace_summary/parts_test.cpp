// The summary's parts: the event-line parser, the quantile sketch's stated accuracy, the time
// split's bins (exact on bin edges, bounded memory) and the sparkline.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "trace_summary/event_line.h"
#include "trace_summary/quantile_sketch.h"
#include "trace_summary/summary_format.h"
#include "trace_summary/time_split.h"

namespace dlbench::trace_summary {
namespace {

TEST(EventLine, ParsesDfTracerFieldsInAnyOrder) {
  EventLine e;
  ASSERT_TRUE(ParseEventLine(
      R"({"id":"7","name":"pread64","cat":"POSIX","pid":3,"tid":4,"ts":12.5,"dur":0.25,"ph":"X","args":{"ret":-1,"size":"4096","fname":"a\"b","list":[1,{"x":null}],"ok":true}},)",
      e));
  EXPECT_EQ(e.name, "pread64");
  EXPECT_EQ(e.cat, "POSIX");
  EXPECT_EQ(e.ph, "X");
  EXPECT_DOUBLE_EQ(e.ts, 12.5);
  EXPECT_DOUBLE_EQ(e.dur, 0.25);
  EXPECT_TRUE(e.has_ret);
  EXPECT_DOUBLE_EQ(e.ret, -1);
  EXPECT_DOUBLE_EQ(e.size, 4096);
  ASSERT_TRUE(ParseEventLine(R"({"ph":"M","name":"PR","args":{"name":"rank","value":"3"}})", e));
  EXPECT_EQ(e.arg_name, "rank");
  EXPECT_EQ(e.arg_value, "3");
  EXPECT_FALSE(e.has_ts);
}

TEST(EventLine, RejectsMalformedLines) {
  EventLine e;
  for (const char* bad :
       {"", "{", "}", "[", R"({"name":"x")", R"({"name":"x",})", R"({"name":"x"} extra)",
        R"({"ts":1e})", R"({"args":{"ret":}})", R"({name:"x"})", R"({"a":tru})"}) {
    EXPECT_FALSE(ParseEventLine(bad, e)) << bad;
  }
}

TEST(QuantileSketch, QuantilesAreWithinTheStatedAccuracy) {
  std::mt19937_64 random(42);
  std::lognormal_distribution<double> sizes(10, 2);
  std::vector<double> values;
  QuantileSketch sketch;
  for (int i = 0; i < 100000; ++i) {
    const double v = std::floor(sizes(random)) + 1;
    values.push_back(v);
    sketch.add(v);
  }
  std::sort(values.begin(), values.end());
  for (double q : {0.25, 0.5, 0.75, 0.99}) {
    const double exact = values[static_cast<std::size_t>(std::ceil(q * values.size())) - 1];
    EXPECT_NEAR(sketch.quantile(q), exact, exact * QuantileSketch::kRelativeAccuracy) << q;
  }
  EXPECT_EQ(sketch.min(), values.front());
  EXPECT_EQ(sketch.max(), values.back());
  QuantileSketch left, right;
  for (std::size_t i = 0; i < values.size(); ++i) (i % 2 ? left : right).add(values[i]);
  left.merge(right);
  EXPECT_EQ(left.count(), sketch.count());
  EXPECT_DOUBLE_EQ(left.quantile(0.5), sketch.quantile(0.5));
}

TEST(QuantileSketch, EqualValuesAndZerosAreExact) {
  QuantileSketch sketch;
  for (int i = 0; i < 10; ++i) sketch.add(131072);
  EXPECT_EQ(sketch.quantile(0.25), 131072);
  EXPECT_EQ(sketch.quantile(0.5), 131072);
  QuantileSketch zeros;
  zeros.add(0);
  zeros.add(0);
  zeros.add(10);
  EXPECT_EQ(zeros.quantile(0.5), 0);
  EXPECT_EQ(QuantileSketch().quantile(0.5), 0);
}

TEST(TimeSplitter, OverlapRemovedAndMemoryBounded) {
  TimeSplitter splitter;
  splitter.add(TimeSplitter::kCompute, 0, 10000);
  splitter.add(TimeSplitter::kIo, 5000, 15000);
  splitter.add(TimeSplitter::kIo, 6000, 7000);  // inside the first I/O: counted once
  TimeSplit split = splitter.result();
  EXPECT_NEAR(split.wall, 0.015, 1e-12);
  EXPECT_NEAR(split.compute, 0.010, 1e-9);
  EXPECT_NEAR(split.io, 0.010, 1e-9);
  EXPECT_NEAR(split.overlap, 0.005, 1e-9);
  // Ten hours of 1 ms events: the bins coarsen instead of growing past kMaxBins.
  splitter.add(TimeSplitter::kCompute, 36e9, 36e9 + 1000);
  split = splitter.result();
  EXPECT_GT(split.bin_width, 0.001);
  EXPECT_LE(split.wall / split.bin_width, static_cast<double>(TimeSplitter::kMaxBins) + 1);
  EXPECT_NEAR(split.compute, 0.011, split.bin_width * 2);
}

TEST(TimeSplitter, EventsBeforeTheFirstAreAccepted) {
  TimeSplitter splitter;
  splitter.add(TimeSplitter::kIo, 1e6, 1e6 + 2000);
  splitter.add(TimeSplitter::kCompute, 0, 1e6 + 1000);
  const TimeSplit split = splitter.result();
  EXPECT_NEAR(split.wall, 1.002, 1e-9);
  EXPECT_NEAR(split.compute, 1.001, 1e-6);
  EXPECT_NEAR(split.overlap, 0.001, 1e-6);
}

TEST(Sparkline, ScalesToThePeakAndWidth) {
  EXPECT_EQ(Sparkline({0, 1, 2, 4, 8}), " ▁▂▄█");
  EXPECT_EQ(Sparkline({}), "");
  const std::vector<double> long_series(1000, 5.0);
  EXPECT_EQ(Sparkline(long_series, 10), "██████████");
}

}  // namespace
}  // namespace dlbench::trace_summary
