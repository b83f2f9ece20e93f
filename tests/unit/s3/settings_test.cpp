// Where the S3 client's settings come from (s3/settings.h): storage_options first, then the
// environment as the AWS tools and MLPerf Storage's fork read it, and what is refused.
#include "s3/settings.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "config/config.h"
#include "support/expect_error.h"

namespace dlbench::s3 {
namespace {

using StorageOptions = std::map<std::string, std::string>;

EnvironmentLookup Environment(std::map<std::string, std::string> variables) {
  return [variables = std::move(variables)](const std::string& name) -> std::optional<std::string> {
    const auto found = variables.find(name);
    if (found == variables.end()) return std::nullopt;
    return found->second;
  };
}

const StorageOptions kDlio{
    {"access_key_id", "access-key"},           {"secret_access_key", "secret-key"},
    {"endpoint_url", "http://localhost:9020"}, {"region", "us-east-1"},
    {"s3_force_path_style", "False"},          {"s3_max_attempts", "5"}};

TEST(S3Settings, TakesDliosStorageOptions) {
  const ClientOptions options = ResolveClientOptions(kDlio, Environment({}), 0);
  EXPECT_EQ(options.endpoint_url, "http://localhost:9020");
  EXPECT_EQ(options.region, "us-east-1");
  EXPECT_EQ(options.credentials.access_key_id, "access-key");
  EXPECT_EQ(options.credentials.secret_access_key, "secret-key");
  EXPECT_FALSE(options.path_style);
  EXPECT_EQ(options.max_attempts, 5);
}

TEST(S3Settings, OptionsWinOverTheEnvironment) {
  const ClientOptions options =
      ResolveClientOptions(kDlio,
                           Environment({{"AWS_ACCESS_KEY_ID", "env-key"},
                                        {"AWS_ENDPOINT_URL", "http://env:1"},
                                        {"AWS_REGION", "eu-west-3"}}),
                           0);
  EXPECT_EQ(options.credentials.access_key_id, "access-key");
  EXPECT_EQ(options.endpoint_url, "http://localhost:9020");
  EXPECT_EQ(options.region, "us-east-1");
}

TEST(S3Settings, TakesEverythingFromTheEnvironmentAsMlperfConfigsDo) {
  const ClientOptions options =
      ResolveClientOptions({},
                           Environment({{"AWS_ACCESS_KEY_ID", "AK"},
                                        {"AWS_SECRET_ACCESS_KEY", "SK"},
                                        {"AWS_SESSION_TOKEN", "TOKEN"},
                                        {"AWS_ENDPOINT_URL", "http://10.0.0.1:80"},
                                        {"AWS_REGION", "eu-west-3"},
                                        {"AWS_CA_BUNDLE", "/etc/ca.pem"}}),
                           3);
  EXPECT_EQ(options.credentials.access_key_id, "AK");
  EXPECT_EQ(options.credentials.secret_access_key, "SK");
  EXPECT_EQ(options.credentials.session_token, "TOKEN");
  EXPECT_EQ(options.endpoint_url, "http://10.0.0.1:80");
  EXPECT_EQ(options.region, "eu-west-3");
  EXPECT_EQ(options.ca_bundle, "/etc/ca.pem");
  EXPECT_TRUE(options.path_style);  // not AWS: path-style unless told
}

TEST(S3Settings, RankRUsesEntryRModNOfS3EndpointUris) {
  const auto environment = Environment({{"AWS_ACCESS_KEY_ID", "AK"},
                                        {"AWS_SECRET_ACCESS_KEY", "SK"},
                                        {"AWS_ENDPOINT_URL", "http://unused:1"},
                                        {"S3_ENDPOINT_URIS", "http://a:1, http://b:2,http://c:3"}});
  EXPECT_EQ(ResolveClientOptions({}, environment, 0).endpoint_url, "http://a:1");
  EXPECT_EQ(ResolveClientOptions({}, environment, 1).endpoint_url, "http://b:2");
  EXPECT_EQ(ResolveClientOptions({}, environment, 5).endpoint_url, "http://c:3");
  EXPECT_EQ(ResolveClientOptions({}, environment, 6).endpoint_url, "http://a:1");
}

// MLPerf Storage's workloads all name an endpoint_url; several endpoints in the environment
// still spread the ranks over them (as its fork does). One entry is one endpoint among others.
TEST(S3Settings, SeveralS3EndpointUrisWinOverTheWorkloadsEndpoint) {
  const StorageOptions workload = {{"endpoint_url", "http://172.16.1.40:9000"}};
  const auto several = Environment({{"AWS_ACCESS_KEY_ID", "AK"},
                                    {"AWS_SECRET_ACCESS_KEY", "SK"},
                                    {"S3_ENDPOINT_URIS", "http://a:1,http://b:2"}});
  EXPECT_EQ(ResolveClientOptions(workload, several, 0).endpoint_url, "http://a:1");
  EXPECT_EQ(ResolveClientOptions(workload, several, 1).endpoint_url, "http://b:2");
  const auto one = Environment({{"AWS_ACCESS_KEY_ID", "AK"},
                                {"AWS_SECRET_ACCESS_KEY", "SK"},
                                {"AWS_ENDPOINT_URL", "http://unused:1"},
                                {"S3_ENDPOINT_URIS", "http://a:1"}});
  EXPECT_EQ(ResolveClientOptions(workload, one, 1).endpoint_url, "http://172.16.1.40:9000");
  EXPECT_EQ(ResolveClientOptions({}, one, 1).endpoint_url, "http://a:1");
}

TEST(S3Settings, DefaultsToAwsVirtualHosted) {
  const ClientOptions options = ResolveClientOptions(
      {{"region", "eu-central-1"}},
      Environment({{"AWS_ACCESS_KEY_ID", "AK"}, {"AWS_SECRET_ACCESS_KEY", "SK"}}), 0);
  EXPECT_EQ(options.endpoint_url, "https://s3.eu-central-1.amazonaws.com");
  EXPECT_FALSE(options.path_style);
  EXPECT_EQ(options.max_attempts, 5);
}

TEST(S3Settings, RefusesMissingCredentialsAndBadValuesNamingTheKey) {
  dlbench::test::ExpectError([] { ResolveClientOptions({}, Environment({}), 0); }, ExitCode::kUsage,
                             {"no access key in storage.storage_options.access_key_id or "
                              "AWS_ACCESS_KEY_ID"});
  dlbench::test::ExpectError(
      [] {
        ResolveClientOptions({{"access_key_id", "AK"}}, Environment({}), 0);
      },
      ExitCode::kUsage, {"no secret key in storage.storage_options.secret_access_key"});
  StorageOptions bad = kDlio;
  bad["s3_max_attempts"] = "0";
  dlbench::test::ExpectError([&] { ResolveClientOptions(bad, Environment({}), 0); },
                             ExitCode::kUsage,
                             {"storage.storage_options.s3_max_attempts: '0' is not a whole "
                              "number from 1 to 100"});
  bad = kDlio;
  bad["s3_force_path_style"] = "maybe";
  dlbench::test::ExpectError([&] { ResolveClientOptions(bad, Environment({}), 0); },
                             ExitCode::kUsage,
                             {"storage.storage_options.s3_force_path_style: 'maybe' is not a "
                              "boolean"});
  bad = kDlio;
  bad["endpoint_url"] = "localhost:9020";
  const std::string endpoint = dlbench::test::ExpectError(
      [&] { ResolveClientOptions(bad, Environment({}), 0); }, ExitCode::kUsage,
      {"'localhost:9020' has no scheme", "storage.storage_options.endpoint_url"});
  EXPECT_EQ(endpoint.find("secret-key"), std::string::npos);
  dlbench::test::ExpectError(
      [] {
        ResolveClientOptions({},
                             Environment({{"AWS_ACCESS_KEY_ID", "AK"},
                                          {"AWS_SECRET_ACCESS_KEY", "SK"},
                                          {"S3_ENDPOINT_URIS", " , "}}),
                             0);
      },
      ExitCode::kUsage, {"S3_ENDPOINT_URIS=' , ' lists no endpoint"});
}

// The configuration lists the storage options dlbench reads (config::StorageConfig::
// kStorageOptionKeys: any other key draws a notice that it is ignored): the keys this module asks
// for, with nothing given and with every listed key given, and two it does not read:
// storage_library (the configuration's own) and op_log (the app's --op-log). A key read here and
// not listed, or listed and read nowhere, fails here.
TEST(S3Settings, ReadsTheStorageOptionsTheConfigurationLists) {
  std::set<std::string> listed(config::StorageConfig::kStorageOptionKeys.begin(),
                               config::StorageConfig::kStorageOptionKeys.end());
  ASSERT_EQ(listed.size(), config::StorageConfig::kStorageOptionKeys.size()) << "listed twice";
  StorageOptions every;
  for (const std::string& key : listed) every[key] = "1";
  every["endpoint_url"] = "http://localhost:9020";
  std::set<std::string> asked;
  for (const StorageOptions& given : {StorageOptions{}, every}) {
    const OptionLookup option = [&](const std::string& key) -> std::optional<std::string> {
      asked.insert(key);
      const auto found = given.find(key);
      if (found == given.end()) return std::nullopt;
      return found->second;
    };
    ResolveClientOptionsFrom(
        option, Environment({{"AWS_ACCESS_KEY_ID", "AK"}, {"AWS_SECRET_ACCESS_KEY", "SK"}}), 0);
  }
  config::StorageConfig storage;
  storage.storage_options = {{"storage_library", "minio"}};
  EXPECT_EQ(storage.library(), "minio");
  for (const char* elsewhere : {"storage_library", "op_log"}) {
    EXPECT_EQ(listed.erase(elsewhere), 1U) << elsewhere;
  }
  EXPECT_EQ(asked, listed);
}

}  // namespace
}  // namespace dlbench::s3
