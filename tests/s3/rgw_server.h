// The Ceph RGW the S3 tests share (tests/s3/rgw.sh, started by ctest's fixture): its endpoint and
// credentials from the env file that DLBENCH_RGW_ENV names, a key prefix of the test's own so
// tests may run at once, and boto3 as the independent client.
#pragma once

#include <string>
#include <vector>

#include "s3/client.h"

namespace dlbench::s3::test {

struct RgwServer {
  ClientOptions options;
  std::string bucket;
  std::string env_file;
  std::string https_endpoint;  // the same server over HTTPS, on a self-signed certificate
  std::string ca_bundle;       // that certificate
  std::string skip_reason;     // non-empty: no server (the tests skip, saying this)
};

RgwServer Rgw();

// Skips the calling test when there is no server; else `server` holds it, and nothing is left
// under the test's prefix (TestPrefix) from an earlier run on the same server.
#define DLBENCH_REQUIRE_RGW(server)                                         \
  const ::dlbench::s3::test::RgwServer server = ::dlbench::s3::test::Rgw(); \
  if (!server.skip_reason.empty()) GTEST_SKIP() << server.skip_reason;      \
  ::dlbench::s3::test::ClearTestPrefix(server)

// A key prefix for the running test: "<suite>/<test>/".
std::string TestPrefix();
// Deletes every object under TestPrefix().
void ClearTestPrefix(const RgwServer& server);

// Runs tests/s3/boto3_tool.py with `arguments` under the server's credentials; returns its
// standard output, or fails the test with its exit status.
std::string Boto3(const RgwServer& server, const std::vector<std::string>& arguments);

// Deterministic bytes for object `seed`.
std::string TestData(std::size_t size, unsigned seed);

}  // namespace dlbench::s3::test
