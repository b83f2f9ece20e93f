#include "config/secrets.h"

#include <cctype>

namespace dlbench::config {

bool IsSecretOption(std::string_view key) {
  std::string lower(key);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower.find("secret") != std::string::npos || lower.find("token") != std::string::npos ||
         lower.find("password") != std::string::npos;
}

std::map<std::string, std::string> HideSecretOptions(std::map<std::string, std::string> options) {
  for (auto& [key, value] : options) {
    if (IsSecretOption(key)) value = kHiddenSecret;
  }
  return options;
}

std::string HideSecretOverride(const std::string& text) {
  const std::size_t equals = text.find('=');
  if (equals == std::string::npos) return text;
  const std::string key = text.substr(0, equals);
  const std::size_t dot = key.rfind('.');
  const std::string last = dot == std::string::npos ? key : key.substr(dot + 1);
  const std::string value = text.substr(equals + 1);
  // A credential itself, or a whole storage_options mapping that holds one.
  const bool hide = IsSecretOption(last) || (last == "storage_options" && IsSecretOption(value));
  return hide ? key + "=" + std::string(kHiddenSecret) : text;
}

}  // namespace dlbench::config
