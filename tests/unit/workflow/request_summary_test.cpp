// The run's object-storage requests in summary.json (workflow/request_summary.h): the kinds some
// rank sent, their counts and latency percentiles, and the totals the insights read; nothing for
// storage that sent no request.
#include "workflow/request_summary.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "metrics/percentiles.h"
#include "storage/env_wrapper.h"
#include "support/test_support.h"

namespace dlbench::workflow {
namespace {

// The POSIX Env, saying it sent these requests.
class Requesting final : public storage::EnvWrapper {
 public:
  explicit Requesting(std::vector<storage::RequestCounts> counts)
      : EnvWrapper(storage::PosixEnv()), counts_(std::move(counts)) {}
  std::vector<storage::RequestCounts> requests() override { return counts_; }

 private:
  std::vector<storage::RequestCounts> counts_;
};

storage::RequestCounts Kind(const std::string& name, const std::vector<double>& seconds,
                            const std::vector<double>& first_bytes) {
  storage::RequestCounts kind;
  kind.operation = name;
  metrics::LatencyHistogram latency;
  metrics::LatencyHistogram first_byte;
  for (double s : seconds) {
    latency.record(s);
    kind.seconds += s;
  }
  for (double s : first_bytes) {
    first_byte.record(s);
    kind.first_byte_seconds += s;
  }
  kind.requests = seconds.size();
  kind.bytes = 1000 * seconds.size();
  kind.latency_buckets = latency.counts();
  kind.latency_max = latency.max();
  kind.first_byte_buckets = first_byte.counts();
  kind.first_byte_max = first_byte.max();
  return kind;
}

TEST(RequestSummary, ListsTheKindsSentWithTheirPercentilesAndTotals) {
  storage::RequestCounts get =
      Kind("GET", {0.001, 0.002, 0.003, 0.004}, {0.001, 0.001, 0.002, 0.002});
  get.retries = 1;
  Requesting storage({get, Kind("HEAD", {}, {}), Kind("PUT", {0.010}, {0.009})});
  const metrics::Json summary = RequestSummary(storage, test::World(), /*quiet=*/true);
  ASSERT_TRUE(summary.contains("object_storage")) << summary.dump();
  const metrics::Json& requests = summary["object_storage"]["requests"];
  EXPECT_FALSE(requests.contains("HEAD"));  // none sent
  EXPECT_EQ(requests["GET"]["requests"], 4);
  EXPECT_EQ(requests["GET"]["retries"], 1);
  EXPECT_EQ(requests["GET"]["bytes"], 4000);
  EXPECT_NEAR(requests["GET"]["latency_seconds"]["p50"].get<double>(), 0.0025, 0.0025 * 0.02);
  EXPECT_DOUBLE_EQ(requests["GET"]["latency_seconds"]["max"].get<double>(), 0.004);
  EXPECT_NEAR(requests["PUT"]["first_byte_seconds"]["p50"].get<double>(), 0.009, 0.009 * 0.02);
  const metrics::Json& total = summary["object_storage"]["total"];
  EXPECT_EQ(total["requests"], 5);
  EXPECT_EQ(total["retries"], 1);
  EXPECT_NEAR(total["request_seconds"].get<double>(), 0.020, 1e-12);
  EXPECT_NEAR(total["first_byte_seconds"].get<double>(), 0.015, 1e-12);
}

TEST(RequestSummary, StorageThatSentNoRequestAddsNothing) {
  EXPECT_TRUE(RequestSummary(storage::PosixEnv(), test::World(), false).empty());
  Requesting idle({Kind("GET", {}, {})});
  EXPECT_TRUE(RequestSummary(idle, test::World(), false).empty());
}

}  // namespace
}  // namespace dlbench::workflow
