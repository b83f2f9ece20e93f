// AWS Signature Version 4 for S3, computed with OpenSSL (HMAC-SHA256, SHA-256). dlbench signs
// its requests itself: Debian 12 has no AWS SDK for C++, its libs3 signs with V2 only, and the
// SigV4 of libcurl 7.88 predates fixes to path and query canonicalisation.
//
// The rules are S3's, which differ from the generic SigV4 of other AWS services: the path is
// URI-encoded once (never twice) and not normalised ("a//b" and "a/./b" are distinct keys),
// every byte but the unreserved A-Z a-z 0-9 - _ . ~ and the path's '/' is percent-encoded with
// upper-case hex, query names and values are encoded the same way with '/' too, and the
// payload's SHA-256 (or UNSIGNED-PAYLOAD) goes in x-amz-content-sha256 and is signed.
//
// Pure functions: no state, safe from any thread.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dlbench::s3 {

struct Credentials {
  std::string access_key_id;
  std::string secret_access_key;
  std::string session_token;  // empty unless temporary credentials (x-amz-security-token)
};

// The payload hash of a request whose body is not hashed (the body is still sent).
inline constexpr std::string_view kUnsignedPayload = "UNSIGNED-PAYLOAD";
// SHA-256 of no bytes: the payload hash of a request without a body.
inline constexpr std::string_view kEmptyPayloadHash =
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

using Header = std::pair<std::string, std::string>;
using QueryParameter = std::pair<std::string, std::string>;  // raw (not yet encoded) name, value

// What is signed. `headers` must hold host, x-amz-date and x-amz-content-sha256 (and
// x-amz-security-token with a session token): SignRequest adds none of them; every header given
// is signed. Names in any case (they are lower-cased), values trimmed of surrounding spaces and
// inner runs of spaces folded to one, as SigV4 requires.
struct SigningInput {
  std::string method;         // "GET", "PUT", ...
  std::string canonical_uri;  // the encoded path, UriEncodePath's result
  std::vector<QueryParameter> query;
  std::vector<Header> headers;
  std::string payload_hash;  // hex SHA-256 of the body, or kUnsignedPayload
  std::string amz_date;      // "20130524T000000Z", the x-amz-date header's value
  std::string region;        // "us-east-1"
  std::string service = "s3";
};

// Percent-encodes `text` as SigV4 requires: unreserved bytes stay, others become %XY (upper
// case); '/' stays when `keep_slash` (paths), else becomes %2F (query names and values).
std::string UriEncode(std::string_view text, bool keep_slash);
// The canonical URI of an object key: "/" + UriEncode(key, true) for path-style requests give
// "/" + bucket + "/" + key to it.
inline std::string UriEncodePath(std::string_view path) { return UriEncode(path, true); }

// The canonical query string: names and values encoded, sorted by encoded name then value,
// joined with '&'; an empty value gives "name=".
std::string CanonicalQuery(const std::vector<QueryParameter>& query);

// The steps, exposed for tests against published intermediate results.
std::string CanonicalRequest(const SigningInput& input);
std::string StringToSign(const SigningInput& input, std::string_view canonical_request);
// The Authorization header's value:
// "AWS4-HMAC-SHA256 Credential=AKID/20130524/us-east-1/s3/aws4_request,
//  SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, Signature=<64 hex>".
std::string Authorization(const SigningInput& input, const Credentials& credentials);

// Lower-case hex SHA-256 of `bytes`.
std::string Sha256Hex(std::span<const std::byte> bytes);
std::string Sha256Hex(std::string_view text);
// Base64 of the MD5 of `bytes` (the Content-MD5 header DeleteObjects requires).
std::string Md5Base64(std::string_view bytes);

// The x-amz-date of a time in seconds since the epoch (UTC): "YYYYMMDDTHHMMSSZ".
std::string AmzDate(long long epoch_seconds);

}  // namespace dlbench::s3
