#include "s3/settings.h"

#include <cstdlib>
#include <vector>

#include "util/error.h"

namespace dlbench::s3 {
namespace {

constexpr char kOptions[] = "storage.storage_options.";

// The storage option `key`, else the first set variable of `variables`; names where it came from
// in `source`.
std::optional<std::string> Setting(const OptionLookup& option, const std::string& key,
                                   const EnvironmentLookup& environment,
                                   const std::vector<std::string>& variables,
                                   std::string* source = nullptr) {
  if (std::optional<std::string> value = option(key); value && !value->empty()) {
    if (source != nullptr) *source = kOptions + key;
    return value;
  }
  for (const std::string& variable : variables) {
    if (std::optional<std::string> value = environment(variable); value && !value->empty()) {
      if (source != nullptr) *source = variable;
      return value;
    }
  }
  return std::nullopt;
}

bool ParseBool(const std::string& key, const std::string& text) {
  if (text == "true" || text == "True" || text == "TRUE" || text == "yes" || text == "1") {
    return true;
  }
  if (text == "false" || text == "False" || text == "FALSE" || text == "no" || text == "0") {
    return false;
  }
  throw UsageError(kOptions + key + ": '" + text + "' is not a boolean (true or false)");
}

// The entries of a comma-separated list of endpoints (S3_ENDPOINT_URIS).
std::vector<std::string> EndpointList(const std::string& list) {
  std::vector<std::string> entries;
  std::size_t start = 0;
  while (start <= list.size()) {
    const std::size_t comma = std::min(list.find(',', start), list.size());
    std::string entry = list.substr(start, comma - start);
    while (!entry.empty() && entry.front() == ' ') entry.erase(entry.begin());
    while (!entry.empty() && entry.back() == ' ') entry.pop_back();
    if (!entry.empty()) entries.push_back(entry);
    start = comma + 1;
  }
  if (entries.empty()) throw UsageError("S3_ENDPOINT_URIS='" + list + "' lists no endpoint");
  return entries;
}

}  // namespace

EnvironmentLookup ProcessEnvironment() {
  return [](const std::string& name) -> std::optional<std::string> {
    const char* value = std::getenv(name.c_str());
    if (value == nullptr) return std::nullopt;
    return std::string(value);
  };
}

ClientOptions ResolveClientOptions(const std::map<std::string, std::string>& storage_options,
                                   const EnvironmentLookup& environment, int rank) {
  return ResolveClientOptionsFrom(
      [&](const std::string& key) -> std::optional<std::string> {
        const auto found = storage_options.find(key);
        if (found == storage_options.end()) return std::nullopt;
        return found->second;
      },
      environment, rank);
}

ClientOptions ResolveClientOptionsFrom(const OptionLookup& option,
                                       const EnvironmentLookup& environment, int rank) {
  ClientOptions options;
  options.region = Setting(option, "region", environment, {"AWS_REGION", "AWS_DEFAULT_REGION"})
                       .value_or("us-east-1");
  // Several endpoints spread the ranks over them whatever else names one (rank r: entry r mod n),
  // as MLPerf Storage's fork does: its workloads all give an endpoint_url.
  std::vector<std::string> endpoints;
  if (const auto list = environment("S3_ENDPOINT_URIS"); list && !list->empty()) {
    endpoints = EndpointList(*list);
  }
  if (endpoints.size() > 1) {
    options.endpoint_url = endpoints[static_cast<std::size_t>(rank) % endpoints.size()];
  } else if (const auto url = Setting(option, "endpoint_url", environment, {})) {
    options.endpoint_url = *url;
  } else if (!endpoints.empty()) {
    options.endpoint_url = endpoints.front();
  } else {
    options.endpoint_url = Setting(option, "endpoint_url", environment, {"AWS_ENDPOINT_URL"})
                               .value_or("https://s3." + options.region + ".amazonaws.com");
  }
  const auto access = Setting(option, "access_key_id", environment, {"AWS_ACCESS_KEY_ID"});
  const auto secret = Setting(option, "secret_access_key", environment, {"AWS_SECRET_ACCESS_KEY"});
  if (!access || !secret) {
    throw UsageError(std::string("S3 storage needs credentials: no ") +
                     (access ? "secret key" : "access key") + " in " + kOptions +
                     (access ? "secret_access_key" : "access_key_id") + " or " +
                     (access ? "AWS_SECRET_ACCESS_KEY" : "AWS_ACCESS_KEY_ID"));
  }
  options.credentials.access_key_id = *access;
  options.credentials.secret_access_key = *secret;
  options.credentials.session_token =
      Setting(option, "session_token", environment, {"AWS_SESSION_TOKEN"}).value_or("");
  options.ca_bundle = Setting(option, "ca_bundle", environment, {"AWS_CA_BUNDLE"}).value_or("");
  if (const auto style = option("s3_force_path_style")) {
    options.path_style = ParseBool("s3_force_path_style", *style);
  } else {
    options.path_style = options.endpoint_url.find(".amazonaws.com") == std::string::npos;
  }
  if (const auto attempts = option("s3_max_attempts")) {
    const std::string& text = *attempts;
    char* end = nullptr;
    const long value = std::strtol(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || value < 1 || value > 100) {
      throw UsageError(std::string(kOptions) + "s3_max_attempts: '" + text +
                       "' is not a whole number from 1 to 100");
    }
    options.max_attempts = static_cast<int>(value);
  }
  // The endpoint's form is checked here, where the key can be named, rather than at first use.
  try {
    Client check(options);
  } catch (const Error& e) {
    throw UsageError(std::string(e.what()) + " (" + kOptions +
                     "endpoint_url, S3_ENDPOINT_URIS "
                     "or AWS_ENDPOINT_URL)");
  }
  return options;
}

}  // namespace dlbench::s3
