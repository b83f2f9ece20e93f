// The op-log (s3/op_log.h): warp's 13 columns, one line per request with its times in RFC 3339
// UTC nanoseconds, fields that cannot break the columns, and the client's requests in it.
#include "s3/op_log.h"

#include <gtest/gtest.h>

#include <chrono>
#include <sstream>
#include <string>
#include <vector>

#include "fake_server.h"
#include "s3/client.h"
#include "support/files.h"
#include "support/test_support.h"

namespace dlbench::s3 {
namespace {

std::vector<std::vector<std::string>> Rows(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    std::vector<std::string> row;
    std::size_t at = 0;
    for (std::size_t tab; (tab = line.find('\t', at)) != std::string::npos; at = tab + 1) {
      row.push_back(line.substr(at, tab - at));
    }
    row.push_back(line.substr(at));
    rows.push_back(row);
  }
  return rows;
}

TEST(OpLog, WritesWarpsColumnsOneLineARequest) {
  dlbench::test::TempDir dir;
  const std::string path = (dir / "ops.tsv").string();
  const auto start = std::chrono::system_clock::time_point(std::chrono::seconds(1'764'650'000)) +
                     std::chrono::nanoseconds(5);
  {
    OpLog log(path, "http://127.0.0.1:7480", "node1:0");
    log.record({.op = "GET",
                .bytes = 4096,
                .bucket = "b",
                .key = "data/img_0.npz",
                .error = "",
                .start = start,
                .first_byte = start + std::chrono::microseconds(300),
                .end = start + std::chrono::milliseconds(2)});
    log.record({.op = "PUT",
                .bucket = "b",
                .key = "k",
                .error = "failed:\tNoSuchBucket\n(HTTP 404)",
                .start = start,
                .first_byte = start,
                .end = start});
    log.close();
  }
  const std::vector<std::vector<std::string>> rows = Rows(dlbench::test::ReadFile(path));
  ASSERT_EQ(rows.size(), 3U);
  EXPECT_EQ(rows[0], (std::vector<std::string>{"idx", "thread", "op", "client_id", "n_objects",
                                               "bytes", "endpoint", "file", "error", "start",
                                               "first_byte", "end", "duration_ns"}));
  EXPECT_EQ(rows[1],
            (std::vector<std::string>{
                "0", rows[1][1], "GET", "node1:0", "1", "4096", "http://127.0.0.1:7480",
                "b/data/img_0.npz", "", "2025-12-02T04:33:20.000000005Z",
                "2025-12-02T04:33:20.000300005Z", "2025-12-02T04:33:20.002000005Z", "2000000"}));
  ASSERT_EQ(rows[2].size(), 13U);
  EXPECT_EQ(rows[2][8], "failed: NoSuchBucket (HTTP 404)");
  EXPECT_EQ(rows[2][12], "0");
}

// A key may hold a '"': its field is quoted, as the CSV readers of warp and s3dlio read fields.
TEST(OpLog, AFieldHoldingAQuoteIsQuoted) {
  dlbench::test::TempDir dir;
  const std::string path = (dir / "ops.tsv").string();
  {
    OpLog log(path, "http://h:1", "n:0");
    const auto now = std::chrono::system_clock::now();
    log.record({.op = "GET",
                .bucket = "b",
                .key = "q\"x/k",
                .error = "",
                .start = now,
                .first_byte = now,
                .end = now});
    log.close();
  }
  const std::vector<std::vector<std::string>> rows = Rows(dlbench::test::ReadFile(path));
  ASSERT_EQ(rows.size(), 2U);
  EXPECT_EQ(rows[1][7], "\"b/q\"\"x/k\"");
}

TEST(OpLog, EachRankWritesItsOwnFileKeepingTheExtension) {
  EXPECT_EQ(RankOpLogPath("ops.tsv", 3), "ops.3.tsv");
  EXPECT_EQ(RankOpLogPath("out/ops.tsv.zst", 0), "out/ops.0.tsv.zst");
  EXPECT_EQ(RankOpLogPath("ops", 1), "ops.1");
  EXPECT_EQ(RankOpLogPath("my.dir/ops", 2), "my.dir/ops.2");
  EXPECT_EQ(RankOpLogPath(".ops", 2), ".ops.2");
}

TEST(OpLog, TheClientLogsEachRequestOnceWithItsRetries) {
  dlbench::test::TempDir dir;
  const std::string path = (dir / "ops.tsv").string();
  test::FakeServer server;
  server.script({503, "", ""});
  server.script({200, "", ""});
  server.script({200, "", "<ListBucketResult><IsTruncated>false</IsTruncated></ListBucketResult>"});
  {
    OpLog log(path, server.endpoint(), "host:0");
    ClientOptions options;
    options.endpoint_url = server.endpoint();
    options.max_attempts = 2;
    options.credentials = {"AKTEST", "secret", ""};
    Client client(options);
    client.set_op_log(&log);
    const std::string payload = "abc";
    client.put("bucket", "key", std::as_bytes(std::span(payload)));
    client.list("bucket", "data/train/", "/");
  }
  const std::vector<std::vector<std::string>> rows = Rows(dlbench::test::ReadFile(path));
  ASSERT_EQ(rows.size(), 3U);  // the header and two requests
  EXPECT_EQ(rows[1][2], "PUT");
  EXPECT_EQ(rows[1][5], "3");
  EXPECT_EQ(rows[1][7], "bucket/key");
  EXPECT_GE(std::stoll(rows[1][12]), 50'000'000);  // its retry's backoff: at least 50 ms
  EXPECT_EQ(rows[2][2], "LIST");
  EXPECT_EQ(rows[2][7], "bucket/data/train/");  // a listing: its prefix
}

}  // namespace
}  // namespace dlbench::s3
