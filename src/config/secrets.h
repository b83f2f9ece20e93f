// Credentials in the configuration (storage.storage_options: an S3 secret key, a session token)
// stay in the loaded Config, where the storage needs them, and are never written back:
// config.yaml, overrides.yaml, `dlbench config` and queries show kHiddenSecret instead.
#pragma once

#include <map>
#include <string>
#include <string_view>

namespace dlbench::config {

inline constexpr std::string_view kHiddenSecret = "(hidden)";

// True for a storage option that holds a credential: its key names a secret, a token or a
// password (any case).
bool IsSecretOption(std::string_view key);

// `options` with the value of every credential replaced by kHiddenSecret.
std::map<std::string, std::string> HideSecretOptions(std::map<std::string, std::string> options);

// An override as it may be written out: one that sets a credential
// (`++workload.storage.storage_options.secret_access_key=...`, or a whole storage_options
// mapping naming one) has its value replaced by kHiddenSecret; any other is returned as it is.
std::string HideSecretOverride(const std::string& text);

}  // namespace dlbench::config
