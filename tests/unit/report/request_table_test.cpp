// The report's table of object-storage requests, from summary.json's object_storage.
#include "report/request_table.h"

#include <gtest/gtest.h>

#include <string>

#include "compare/run_set.h"
#include "report/html_report.h"
#include "support/test_support.h"

namespace dlbench::report {
namespace {

metrics::Json Latencies(double p50, double p90, double p99, double max) {
  return {{"p50", p50}, {"p90", p90}, {"p99", p99}, {"max", max}};
}

metrics::Json OnS3() {
  return {{"object_storage",
           {{"requests",
             {{"range GET",
               {{"requests", 41},
                {"retries", 2},
                {"failures", 0},
                {"bytes", 4194304},
                {"latency_seconds", Latencies(0.004855, 0.006, 0.009523, 0.012)},
                {"first_byte_seconds", Latencies(0.004759, 0.0055, 0.009, 0.0101)}}},
              {"PUT", {{"requests", 13}, {"retries", 0}, {"failures", 1}, {"bytes", 1048576}}}}},
            {"total", {{"requests", 54}}}}}};
}

// The cells of the row of `name`.
std::string RequestRow(const std::string& html, const std::string& name) {
  const std::size_t start = html.find("<tr><td>" + name + "</td>");
  if (start == std::string::npos) return "";
  return html.substr(start, html.find("</tr>", start) - start);
}

TEST(RequestTable, OneRowPerKindWithCountsAndMilliseconds) {
  const std::string html = RequestTable(OnS3());
  EXPECT_EQ(RequestRow(html, "range GET"),
            "<tr><td>range GET</td><td>41</td><td>2</td><td>0</td><td>4</td>"
            "<td>4.855</td><td>6</td><td>9.523</td><td>12</td>"
            "<td>4.759</td><td>5.5</td><td>9</td><td>10.1</td>");
  // A kind without histograms (an older summary) shows dashes, not zeros.
  EXPECT_EQ(RequestRow(html, "PUT"),
            "<tr><td>PUT</td><td>13</td><td>0</td><td>1</td><td>1</td>"
            "<td>-</td><td>-</td><td>-</td><td>-</td><td>-</td><td>-</td><td>-</td><td>-</td>");
  EXPECT_EQ(RequestRow(html, "total"), "");
}

TEST(RequestTable, NoneForARunWithoutRequests) {
  EXPECT_EQ(RequestTable(metrics::Json::object()), "");
  EXPECT_EQ(RequestTable({{"object_storage", {{"requests", metrics::Json::object()}}}}), "");
  EXPECT_EQ(RequestTable({{"object_storage", "broken"}}), "");
}

TEST(RequestTable, TheReportShowsItUnderTheRun) {
  const test::TempDir s3, posix;
  s3.write("summary.json", OnS3().dump());
  posix.write("summary.json", metrics::Json{{"metric", {{"train_au_mean_percentage", 99}}}}.dump());
  const std::string html = BuildHtmlReport({compare::LoadRunSet(s3.path().string()).runs[0],
                                            compare::LoadRunSet(posix.path().string()).runs[0]});
  const std::size_t table = html.find("<h3>Object storage requests</h3>");
  ASSERT_NE(table, std::string::npos) << html;
  EXPECT_EQ(html.find("<h3>Object storage requests</h3>", table + 1), std::string::npos);
  EXPECT_NE(html.find("<tr><td>range GET</td><td>41</td>", table), std::string::npos);
}

}  // namespace
}  // namespace dlbench::report
