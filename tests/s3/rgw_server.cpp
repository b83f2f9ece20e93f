#include "rgw_server.h"

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <random>

namespace dlbench::s3::test {

RgwServer Rgw() {
  RgwServer server;
  const char* env_file = std::getenv("DLBENCH_RGW_ENV");
  if (env_file == nullptr) {
    server.skip_reason = "DLBENCH_RGW_ENV is not set (ctest's rgw fixture sets it)";
    return server;
  }
  server.env_file = env_file;
  const std::string folder = server.env_file.substr(0, server.env_file.rfind('/'));
  std::ifstream skipped(folder + "/skipped");
  if (skipped) {
    std::getline(skipped, server.skip_reason);
    return server;
  }
  std::ifstream in(server.env_file);
  if (!in) {
    server.skip_reason = "no " + server.env_file + ": the rgw fixture did not start";
    ADD_FAILURE() << server.skip_reason;
    return server;
  }
  std::map<std::string, std::string> values;
  for (std::string line; std::getline(in, line);) {
    const std::size_t equals = line.find('=');
    if (equals != std::string::npos) values[line.substr(0, equals)] = line.substr(equals + 1);
  }
  server.options.endpoint_url = values["AWS_ENDPOINT_URL"];
  server.options.region = values["AWS_REGION"];
  server.options.credentials = {values["AWS_ACCESS_KEY_ID"], values["AWS_SECRET_ACCESS_KEY"], ""};
  server.options.max_attempts = 3;
  server.bucket = values["DLBENCH_S3_BUCKET"];
  server.https_endpoint = values["DLBENCH_S3_HTTPS_ENDPOINT"];
  server.ca_bundle = values["DLBENCH_S3_CA_BUNDLE"];
  return server;
}

std::string TestPrefix() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  return std::string(info->test_suite_name()) + "/" + info->name() + "/";
}

void ClearTestPrefix(const RgwServer& server) {
  Client client(server.options);
  std::vector<std::string> keys;
  for (ObjectInfo& object : client.list(server.bucket, TestPrefix()).objects) {
    keys.push_back(std::move(object.key));
  }
  client.delete_objects(server.bucket, keys);
}

std::string Boto3(const RgwServer& server, const std::vector<std::string>& arguments) {
  std::string command = "set -a; . '" + server.env_file + "'; set +a; " DLBENCH_PYTHON " " +
                        std::string(DLBENCH_SOURCE_DIR) + "/tests/s3/boto3_tool.py";
  for (const std::string& argument : arguments) command += " '" + argument + "'";
  FILE* pipe = popen(command.c_str(), "r");
  std::string out;
  if (pipe == nullptr) {
    ADD_FAILURE() << "cannot run " << command;
    return out;
  }
  char buffer[4096];
  std::size_t got = 0;
  while ((got = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) out.append(buffer, got);
  const int status = pclose(pipe);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << command << " failed: " << out;
  return out;
}

std::string TestData(std::size_t size, unsigned seed) {
  std::mt19937 random(seed);
  std::string out(size, '\0');
  for (char& c : out) c = static_cast<char>(random());
  return out;
}

}  // namespace dlbench::s3::test
