#include "s3/answer_errors.h"

#include <algorithm>
#include <array>
#include <string_view>

#include "util/error.h"

namespace dlbench::s3 {
namespace {

// Statuses retried, as botocore retries them: too many requests, and the server's errors.
bool RetryableStatus(long status) {
  return status == 429 || status == 500 || status == 502 || status == 503 || status == 504;
}

// Error codes retried whatever the status, as botocore's standard retry mode does: a request
// that took the server too long to receive, throttling, and the codes of a 500 and a 503, which
// a 200's error body may carry.
bool RetryableCode(std::string_view code) {
  static constexpr std::array<std::string_view, 8> kCodes = {
      "RequestTimeout", "RequestTimeoutException", "PriorRequestNotComplete",
      "Throttling",     "ThrottlingException",     "SlowDown",
      "InternalError",  "ServiceUnavailable"};
  return std::ranges::find(kCodes, code) != kCodes.end();
}

// The name of an answer's status where the answer carries no error code (a HEAD's answer has no
// body): S3's for HEAD (404 NotFound, 403 Forbidden, 400 BadRequest, 301 PermanentRedirect), else
// the code S3 sends with that status, else its class.
const char* StatusName(long status) {
  switch (status) {
    case 301:
      return "PermanentRedirect";
    case 307:
      return "TemporaryRedirect";
    case 400:
      return "BadRequest";
    case 403:
      return "Forbidden";
    case 404:
      return "NotFound";
    case 405:
      return "MethodNotAllowed";
    case 409:
      return "Conflict";
    case 411:
      return "MissingContentLength";
    case 412:
      return "PreconditionFailed";
    case 416:
      return "InvalidRange";
    case 429:
      return "TooManyRequests";
    case 500:
      return "InternalError";
    case 501:
      return "NotImplemented";
    case 502:
      return "BadGateway";
    case 503:
      return "ServiceUnavailable";
    case 504:
      return "GatewayTimeout";
    default:
      break;
  }
  if (status >= 500) return "ServerError";
  if (status >= 400) return "ClientError";
  return "UnexpectedStatus";
}

}  // namespace

ErrorBody AnswerError(const HttpResponse& response) {
  ErrorBody error = ParseErrorBody(response.body);
  if (error.code.empty()) {
    error.code = response.error_code;
    if (error.message.empty()) error.message = response.error_message;
  }
  if (error.code.empty()) {
    error.code = StatusName(response.status);
    if (response.status == 403 && error.message.empty()) {
      error.message =
          "the answer carries no error code: a wrong secret, a missing permission or an expired "
          "token";
    }
  }
  if (!response.bucket_region.empty()) error.region = response.bucket_region;
  return error;
}

bool RetryableAnswer(const HttpResponse& response) {
  return RetryableStatus(response.status) || RetryableCode(AnswerError(response).code);
}

std::string RegionHint(const HttpResponse& response, const ErrorBody& error,
                       const std::string& region, const std::string& endpoint) {
  const bool redirect = response.status == 301 || error.code == "PermanentRedirect";
  const bool about_region = redirect || error.code == "AuthorizationHeaderMalformed" ||
                            error.code == "IllegalLocationConstraintException" ||
                            (!response.bucket_region.empty() && response.bucket_region != region);
  if (!about_region) return "";
  if (!error.region.empty() && error.region != region) {
    return "the bucket is in region " + FileText(error.region) +
           ": set storage.storage_options.region or AWS_REGION";
  }
  if (!error.region.empty() && redirect) {
    return "the bucket is in region " + FileText(error.region) +
           ", the one configured, but not at " + endpoint +
           ": set storage.storage_options.endpoint_url or AWS_ENDPOINT_URL";
  }
  if (redirect) {
    return "the bucket is in another region than " + region +
           ": set storage.storage_options.region or AWS_REGION";
  }
  return "";
}

}  // namespace dlbench::s3
