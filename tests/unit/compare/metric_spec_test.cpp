#include "compare/metric_spec.h"

#include <gtest/gtest.h>

#include "support/test_support.h"
#include "util/error.h"

namespace dlbench::compare {
namespace {

TEST(MetricSpec, ParseTolerance) {
  EXPECT_DOUBLE_EQ(ParseTolerance("10%", "t"), 0.10);
  EXPECT_DOUBLE_EQ(ParseTolerance("0.05", "t"), 0.05);
  EXPECT_DOUBLE_EQ(ParseTolerance("0%", "t"), 0.0);
  for (const char* bad : {"", "%", "ten", "10 %", "-5%", "100%", "1.5", "nan"}) {
    EXPECT_THROW(ParseTolerance(bad, "t"), Error) << bad;
  }
}

TEST(MetricSpec, NamedMetricDirection) {
  EXPECT_EQ(NamedMetric("metric.train_batch_wait_p99_seconds").direction,
            Direction::kLowerIsBetter);
  EXPECT_EQ(NamedMetric("metric.eval_au_mean_percentage").direction, Direction::kHigherIsBetter);
  const MetricSpec spec = NamedMetric("metric.x_seconds:higher");
  EXPECT_EQ(spec.path, "metric.x_seconds");
  EXPECT_EQ(spec.direction, Direction::kHigherIsBetter);
  EXPECT_TRUE(spec.required);
  EXPECT_THROW(NamedMetric("metric.x:sideways"), Error);
  EXPECT_THROW(NamedMetric(".x"), Error);
}

TEST(MetricSpec, ToleranceFile) {
  test::TempDir dir;
  const auto file = dir.write("tolerances.yaml", R"(
tolerance: 15%
alpha: 0.01
metrics:
  metric.train_au_mean_percentage: 5%
  metric.train_batch_wait_p99_seconds: {tolerance: 30%, direction: lower}
)");
  CompareSettings settings;
  settings.metrics = HeadlineMetrics();
  ApplyToleranceFile(file.string(), settings, /*cli_tolerance_given=*/false);
  EXPECT_DOUBLE_EQ(settings.tolerance, 0.15);
  EXPECT_DOUBLE_EQ(settings.alpha, 0.01);
  ASSERT_EQ(settings.metrics.size(), HeadlineMetrics().size() + 1);
  EXPECT_DOUBLE_EQ(settings.tolerance_of(settings.metrics[1]), 0.05);  // AU
  EXPECT_DOUBLE_EQ(settings.tolerance_of(settings.metrics[0]), 0.15);  // samples/s: the default
  EXPECT_EQ(settings.metrics.back().direction, Direction::kLowerIsBetter);
  EXPECT_DOUBLE_EQ(*settings.metrics.back().tolerance, 0.30);

  CompareSettings cli;
  cli.tolerance = 0.2;
  ApplyToleranceFile(file.string(), cli, /*cli_tolerance_given=*/true);
  EXPECT_DOUBLE_EQ(cli.tolerance, 0.2);  // --tolerance wins over the file's default
}

TEST(MetricSpec, BadToleranceFiles) {
  test::TempDir dir;
  CompareSettings settings;
  for (const char* text : {"tolerance: [1]", "tolerence: 5%", "metrics: 5%",
                           "metrics: {a.b: {tolerance: 5%, way: up}}", "alpha: 2", "- 1",
                           "metrics: {a.b: lots}", "tolerance: {"}) {
    const auto file = dir.write("t.yaml", text);
    EXPECT_THROW(ApplyToleranceFile(file.string(), settings, false), Error) << text;
  }
  EXPECT_THROW(ApplyToleranceFile((dir / "missing.yaml").string(), settings, false), Error);
}

}  // namespace
}  // namespace dlbench::compare
