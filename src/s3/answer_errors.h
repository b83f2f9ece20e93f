// What an S3 answer that is an error says, and whether another attempt may fare better: the
// client's one place for naming errors, deciding retries and telling a wrong region.
//
// An answer is an error when its status is not 2xx, or when it is a 2xx whose body is an S3
// <Error> (CompleteMultipartUpload and DeleteObjects: S3 answers 200 at once and says in the body
// how it ended). Its error is named, in this order, by its body's <Code> and <Message>, by its
// x-amz-error-code and x-amz-error-message headers (some servers send them, where a HEAD's answer
// has no body), else by its status as S3 names it for HEAD (404 NotFound, 403 Forbidden,
// 400 BadRequest, 301 PermanentRedirect...), else by its class (ClientError, ServerError); a bare
// 403 says what it may be. Retried, as botocore's standard mode decides: HTTP 429, 500, 502, 503
// and 504, and the codes of a request the server took too long to receive, of throttling and of
// a 500 and a 503 (RequestTimeout, RequestTimeoutException, PriorRequestNotComplete, Throttling,
// ThrottlingException, SlowDown, InternalError, ServiceUnavailable), whatever the status (S3
// sends some with 400, and a 200's body may carry them).
//
// Pure functions of the answer: no I/O, no counting, no exception. The client (client.h) decides
// which answers are errors for a request, retries, counts and words the failure with these.
#pragma once

#include <string>

#include "s3/http.h"
#include "s3/xml.h"

namespace dlbench::s3 {

// The error `response` carries, named as above; its region is the bucket's, from
// x-amz-bucket-region, else from the body's <Region>.
ErrorBody AnswerError(const HttpResponse& response);

// Whether an answer that is an error is worth another attempt (its status or its code, above).
bool RetryableAnswer(const HttpResponse& response);

// What to set when the answer says the bucket is in another region than `region` (the one
// configured, which signed the request): a redirect (301 PermanentRedirect), a signature scoped
// to the wrong region (AuthorizationHeaderMalformed), IllegalLocationConstraintException, or an
// x-amz-bucket-region naming another. Names the bucket's region when the answer does, and the
// endpoint setting when the region is right but `endpoint` is not. Empty when the answer says
// nothing of regions. Redirects are not followed: the request was signed for `region`.
std::string RegionHint(const HttpResponse& response, const ErrorBody& error,
                       const std::string& region, const std::string& endpoint);

}  // namespace dlbench::s3
