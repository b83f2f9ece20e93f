#include "s3/sigv4.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <ctime>

#include "util/error.h"

namespace dlbench::s3 {
namespace {

constexpr char kHexDigits[] = "0123456789abcdef";
constexpr char kUpperHexDigits[] = "0123456789ABCDEF";

std::string Hex(std::span<const unsigned char> bytes) {
  std::string out;
  out.reserve(bytes.size() * 2);
  for (const unsigned char byte : bytes) {
    out += kHexDigits[byte >> 4];
    out += kHexDigits[byte & 0xF];
  }
  return out;
}

using Digest = std::array<unsigned char, 32>;

Digest HmacSha256(std::span<const unsigned char> key, std::string_view data) {
  Digest out{};
  unsigned int length = 0;
  if (HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
           reinterpret_cast<const unsigned char*>(data.data()), data.size(), out.data(),
           &length) == nullptr ||
      length != out.size()) {
    throw InternalError("s3: OpenSSL's HMAC-SHA256 failed");
  }
  return out;
}

Digest HmacSha256(std::string_view key, std::string_view data) {
  return HmacSha256(std::span(reinterpret_cast<const unsigned char*>(key.data()), key.size()),
                    data);
}

std::string Digest256Hex(const void* data, std::size_t size) {
  Digest out{};
  unsigned int length = 0;
  if (EVP_Digest(data, size, out.data(), &length, EVP_sha256(), nullptr) != 1) {
    throw InternalError("s3: OpenSSL's SHA-256 failed");
  }
  return Hex(out);
}

std::string Lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Trims surrounding spaces and folds inner runs of spaces to one.
std::string TrimFold(std::string_view value) {
  std::string out;
  bool space = false;
  for (const char c : value) {
    if (c == ' ' || c == '\t') {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

// The lower-cased headers, sorted by name.
std::vector<Header> SortedHeaders(const std::vector<Header>& headers) {
  std::vector<Header> sorted;
  sorted.reserve(headers.size());
  for (const auto& [name, value] : headers) sorted.emplace_back(Lower(name), TrimFold(value));
  std::sort(sorted.begin(), sorted.end());
  return sorted;
}

std::string SignedHeaders(const std::vector<Header>& sorted) {
  std::string out;
  for (const auto& [name, value] : sorted) {
    if (!out.empty()) out += ';';
    out += name;
  }
  return out;
}

std::string Scope(const SigningInput& input) {
  return input.amz_date.substr(0, 8) + "/" + input.region + "/" + input.service + "/aws4_request";
}

}  // namespace

std::string UriEncode(std::string_view text, bool keep_slash) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (std::isalnum(byte) != 0 || c == '-' || c == '_' || c == '.' || c == '~' ||
        (c == '/' && keep_slash)) {
      out += c;
    } else {
      out += '%';
      out += kUpperHexDigits[byte >> 4];
      out += kUpperHexDigits[byte & 0xF];
    }
  }
  return out;
}

std::string CanonicalQuery(const std::vector<QueryParameter>& query) {
  std::vector<QueryParameter> encoded;
  encoded.reserve(query.size());
  for (const auto& [name, value] : query) {
    encoded.emplace_back(UriEncode(name, false), UriEncode(value, false));
  }
  std::sort(encoded.begin(), encoded.end());
  std::string out;
  for (const auto& [name, value] : encoded) {
    if (!out.empty()) out += '&';
    out += name + "=" + value;
  }
  return out;
}

std::string CanonicalRequest(const SigningInput& input) {
  const std::vector<Header> sorted = SortedHeaders(input.headers);
  std::string out =
      input.method + "\n" + input.canonical_uri + "\n" + CanonicalQuery(input.query) + "\n";
  for (const auto& [name, value] : sorted) out += name + ":" + value + "\n";
  out += "\n" + SignedHeaders(sorted) + "\n" + input.payload_hash;
  return out;
}

std::string StringToSign(const SigningInput& input, std::string_view canonical_request) {
  return "AWS4-HMAC-SHA256\n" + input.amz_date + "\n" + Scope(input) + "\n" +
         Sha256Hex(canonical_request);
}

std::string Authorization(const SigningInput& input, const Credentials& credentials) {
  const std::string canonical = CanonicalRequest(input);
  const std::string to_sign = StringToSign(input, canonical);
  const Digest date_key =
      HmacSha256("AWS4" + credentials.secret_access_key, input.amz_date.substr(0, 8));
  const Digest region_key = HmacSha256(date_key, input.region);
  const Digest service_key = HmacSha256(region_key, input.service);
  const Digest signing_key = HmacSha256(service_key, "aws4_request");
  const Digest signature = HmacSha256(signing_key, to_sign);
  return "AWS4-HMAC-SHA256 Credential=" + credentials.access_key_id + "/" + Scope(input) +
         ", SignedHeaders=" + SignedHeaders(SortedHeaders(input.headers)) +
         ", Signature=" + Hex(signature);
}

std::string Sha256Hex(std::span<const std::byte> bytes) {
  return Digest256Hex(bytes.data(), bytes.size());
}

std::string Sha256Hex(std::string_view text) { return Digest256Hex(text.data(), text.size()); }

std::string Md5Base64(std::string_view bytes) {
  std::array<unsigned char, 16> digest{};
  unsigned int length = 0;
  if (EVP_Digest(bytes.data(), bytes.size(), digest.data(), &length, EVP_md5(), nullptr) != 1) {
    throw InternalError("s3: OpenSSL's MD5 failed");
  }
  std::array<unsigned char, 32> text{};  // 4 * ceil(16 / 3) + 1
  const int written = EVP_EncodeBlock(text.data(), digest.data(), static_cast<int>(digest.size()));
  return {reinterpret_cast<const char*>(text.data()), static_cast<std::size_t>(written)};
}

std::string AmzDate(long long epoch_seconds) {
  const auto seconds = static_cast<std::time_t>(epoch_seconds);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  std::array<char, 20> text{};
  std::strftime(text.data(), text.size(), "%Y%m%dT%H%M%SZ", &utc);
  return text.data();
}

}  // namespace dlbench::s3
