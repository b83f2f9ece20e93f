// The S3 client's settings as DLIO, MLPerf Storage's DLIO fork and the AWS tools spell them:
// storage.storage_options first, then the environment, then the default.
// - endpoint: S3_ENDPOINT_URIS when it lists several (rank r: entry r mod n, whatever else names
//   an endpoint), else endpoint_url, else a one-entry S3_ENDPOINT_URIS, else AWS_ENDPOINT_URL,
//   else https://s3.<region>.amazonaws.com.
// - region: region, AWS_REGION, AWS_DEFAULT_REGION; us-east-1.
// - access key: access_key_id, AWS_ACCESS_KEY_ID; secret key: secret_access_key,
//   AWS_SECRET_ACCESS_KEY (both required); session token: session_token, AWS_SESSION_TOKEN.
// - addressing: s3_force_path_style; path-style, virtual-hosted on amazonaws.com (where a
//   virtual host can name the bucket: s3/client.h ClientOptions::path_style).
// - attempts: s3_max_attempts (1 to 100); 5.
// - CA bundle: ca_bundle, AWS_CA_BUNDLE; the system's.
//
// Errors are UsageError (exit 2) naming the key (or variable) and the value, never a secret.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>

#include "s3/client.h"

namespace dlbench::s3 {

// Reads one environment variable: nullopt when unset (tests give their own).
using EnvironmentLookup = std::function<std::optional<std::string>(const std::string& name)>;
EnvironmentLookup ProcessEnvironment();

ClientOptions ResolveClientOptions(const std::map<std::string, std::string>& storage_options,
                                   const EnvironmentLookup& environment, int rank);
// The same, each storage option read through `option` (nullopt when absent): the keys asked are
// the keys this module reads, which config::StorageConfig::kStorageOptionKeys must list (a test
// compares them).
using OptionLookup = std::function<std::optional<std::string>(const std::string& key)>;
ClientOptions ResolveClientOptionsFrom(const OptionLookup& option,
                                       const EnvironmentLookup& environment, int rank);

}  // namespace dlbench::s3
