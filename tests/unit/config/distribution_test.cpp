// Time values in every DLIO form, through a whole load so the key paths and
// origins in messages are the real ones.
#include <gtest/gtest.h>

#include "config_test_util.h"

namespace dlbench::config {
namespace {

using Kind = TimeDistribution::Kind;
using testing::LoadError;
using testing::LoadText;

TimeDistribution ComputationTime(const std::string& value) {
  return LoadText("train:\n  computation_time: " + value + "\n").config.train.computation_time;
}

TEST(Distribution, Scalar) {
  const auto d = ComputationTime("0.323");
  EXPECT_EQ(d.kind, Kind::kConstant);
  EXPECT_EQ(d.mean, 0.323);
  EXPECT_EQ(ComputationTime("2").mean, 2.0);
}

TEST(Distribution, MeanOnlyIsConstant) {
  const auto d = ComputationTime("{mean: 1.5}");
  EXPECT_EQ(d.kind, Kind::kConstant);
  EXPECT_EQ(d.mean, 1.5);
}

TEST(Distribution, MeanAndStdevWithoutTypeIsNormal) {
  const auto d = ComputationTime("{mean: 1.0, stdev: 0.1}");
  EXPECT_EQ(d.kind, Kind::kNormal);
  EXPECT_EQ(d.mean, 1.0);
  EXPECT_EQ(d.stdev, 0.1);
}

TEST(Distribution, EveryType) {
  auto d = ComputationTime("{type: normal, mean: 2, stdev: 0.5}");
  EXPECT_EQ(d.kind, Kind::kNormal);
  EXPECT_EQ(d.stdev, 0.5);
  d = ComputationTime("{type: uniform, min: 0.5, max: 1.5}");
  EXPECT_EQ(d.kind, Kind::kUniform);
  EXPECT_EQ(d.min, 0.5);
  EXPECT_EQ(d.max, 1.5);
  EXPECT_EQ(d.expected(), 1.0);
  d = ComputationTime("{type: gamma, shape: 2, scale: 0.25}");
  EXPECT_EQ(d.kind, Kind::kGamma);
  EXPECT_EQ(d.expected(), 0.5);
  d = ComputationTime("{type: exponential, scale: 0.3}");
  EXPECT_EQ(d.kind, Kind::kExponential);
  EXPECT_EQ(d.scale, 0.3);
  d = ComputationTime("{type: poisson, lam: 4}");
  EXPECT_EQ(d.kind, Kind::kPoisson);
  EXPECT_EQ(d.lam, 4.0);
  EXPECT_EQ(ComputationTime("{type: Normal, mean: 1, stdev: 0}").kind, Kind::kNormal);
}

TEST(Distribution, EmptyOrNullIsZero) {
  EXPECT_TRUE(ComputationTime("{}").is_zero());
  EXPECT_TRUE(ComputationTime("null").is_zero());
}

TEST(Distribution, EveryTimeKeyAcceptsIt) {
  const Config config = LoadText(
                            "reader: {preprocess_time: {mean: 0.1, stdev: 0.01}}\n"
                            "evaluation: {eval_time: {type: uniform, min: 1, max: 2}}\n")
                            .config;
  EXPECT_EQ(config.reader.preprocess_time.kind, Kind::kNormal);
  EXPECT_EQ(config.evaluation.eval_time.kind, Kind::kUniform);
}

TEST(Distribution, UnknownTypeIsAnError) {
  EXPECT_EQ(LoadError("train:\n  computation_time: {type: lognormal, mean: 1}\n"),
            "train.computation_time.type: unknown distribution 'lognormal'; allowed: normal, "
            "uniform, gamma, exponential, poisson (w.yaml:2)");
}

TEST(Distribution, UnknownKeySuggestsTheClosest) {
  EXPECT_EQ(LoadError("train:\n  computation_time: {mean: 1, stdv: 0.1}\n"),
            "train.computation_time.stdv: unknown key (w.yaml:2); did you mean stdev?");
}

TEST(Distribution, ParameterOfAnotherTypeIsAnError) {
  const std::string message =
      LoadError("train:\n  computation_time: {type: uniform, min: 1, max: 2, stdev: 3}\n");
  EXPECT_NE(message.find("train.computation_time.stdev: not a parameter of uniform (which takes "
                         "min, max)"),
            std::string::npos)
      << message;
  EXPECT_NE(LoadError("train:\n  computation_time: {shape: 1}\n").find("not a parameter"),
            std::string::npos);
}

TEST(Distribution, WrongValueTypes) {
  EXPECT_NE(LoadError("train:\n  computation_time: fast\n")
                .find("train.computation_time: expected a number, got fast (w.yaml:2)"),
            std::string::npos);
  EXPECT_NE(LoadError("train:\n  computation_time: [1, 2]\n").find("expected seconds"),
            std::string::npos);
  EXPECT_NE(LoadError("train:\n  computation_time: {mean: x}\n")
                .find("train.computation_time.mean: expected a number"),
            std::string::npos);
}

TEST(Distribution, ParameterRanges) {
  EXPECT_NE(LoadError("train: {computation_time: -1}\n")
                .find("train.computation_time: must be a finite number >= 0, got -1.0"),
            std::string::npos);
  EXPECT_NE(LoadError("train: {computation_time: {mean: 1, stdev: -0.1}}\n")
                .find("train.computation_time.stdev: must be a finite number >= 0"),
            std::string::npos);
  EXPECT_NE(LoadError("train: {computation_time: {type: uniform, min: 2, max: 1}}\n")
                .find("uniform needs min <= max"),
            std::string::npos);
  EXPECT_NE(LoadError("train: {computation_time: {type: gamma, shape: 0, scale: 1}}\n")
                .find("train.computation_time.shape: must be a finite number > 0"),
            std::string::npos);
  EXPECT_NE(LoadError("train: {computation_time: {type: gamma, shape: 1, scale: 0}}\n")
                .find("train.computation_time.scale: must be a finite number > 0"),
            std::string::npos);
  EXPECT_NE(LoadError("evaluation: {eval_time: {type: exponential, scale: -1}}\n")
                .find("evaluation.eval_time.scale: must be a finite number > 0"),
            std::string::npos);
  EXPECT_NE(LoadError("reader: {preprocess_time: {type: poisson, lam: -2}}\n")
                .find("reader.preprocess_time.lam: must be a finite number >= 0"),
            std::string::npos);
}

}  // namespace
}  // namespace dlbench::config
