// The client's requests, retries and error messages against a scripted local server
// (fake_server.h): what goes on the wire, which failures are retried and counted, and what an
// error says (the server's code, the object, the endpoint; never the secret); and the trace event
// each request leaves.
#include "s3/client.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cctype>
#include <chrono>
#include <string>
#include <vector>

#include "fake_server.h"
#include "support/expect_error.h"
#include "support/test_support.h"
#include "trace/recorder.h"
#include "unit/trace/trace_lines.h"

namespace dlbench::s3 {
namespace {

using test::FakeServer;
using test::Reply;

constexpr char kSecret[] = "s3cr3t-never-printed";

ClientOptions Options(const std::string& endpoint, int attempts = 3) {
  ClientOptions options;
  options.endpoint_url = endpoint;
  options.max_attempts = attempts;
  options.credentials = {"AKTEST", kSecret, ""};
  return options;
}

std::string ErrorXml(const std::string& code, const std::string& message) {
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>" + code + "</Code><Message>" +
         message + "</Message><BucketName>b</BucketName></Error>";
}

TEST(S3Client, SignsPathStyleRequestsAndReadsRanges) {
  FakeServer server;
  server.script({206, "Content-Range: bytes 2-5/10\r\n", "2345"});
  Client client(Options(server.endpoint()));
  std::string buffer(4, '\0');
  const GetResult result =
      client.get("bucket", "dir/a b.npz", 2, std::as_writable_bytes(std::span(buffer)));
  EXPECT_EQ(result.bytes, 4U);
  EXPECT_EQ(result.object_size, 10U);
  EXPECT_EQ(buffer, "2345");
  const auto received = server.received();
  ASSERT_EQ(received.size(), 1U);
  EXPECT_EQ(received[0].method, "GET");
  EXPECT_EQ(received[0].target, "/bucket/dir/a%20b.npz");
  EXPECT_NE(received[0].headers.find("range: bytes=2-5"), std::string::npos);
  EXPECT_NE(received[0].headers.find("Authorization: AWS4-HMAC-SHA256 Credential=AKTEST/"),
            std::string::npos);
  EXPECT_NE(received[0].headers.find(
                "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, Signature="),
            std::string::npos);
  EXPECT_EQ(received[0].headers.find(kSecret), std::string::npos);
}

TEST(S3Client, ARangePastTheEndReadsNothingAndOtherErrorsNameTheRangeGet) {
  FakeServer server;
  server.script({416, "Content-Range: bytes */10\r\n", ErrorXml("InvalidRange", "past end")});
  server.script({403, "", ErrorXml("AccessDenied", "no")});
  Client client(Options(server.endpoint()));
  std::string buffer(4, '\0');
  const GetResult result = client.get("bucket", "k", 10, std::as_writable_bytes(std::span(buffer)));
  EXPECT_EQ(result.bytes, 0U);
  EXPECT_EQ(result.object_size, 10U);
  dlbench::test::ExpectError(
      [&] { client.get("bucket", "k", 0, std::as_writable_bytes(std::span(buffer))); },
      ExitCode::kIo, {"S3 range GET of s3://bucket/k", "AccessDenied (HTTP 403)"});
  EXPECT_EQ(server.received().size(), 2U);  // no HEAD behind either
}

TEST(S3Client, RetriesSlowDownAndServerErrorsAndCountsEachRetry) {
  FakeServer server;
  server.script({503, "", ErrorXml("SlowDown", "Please reduce your request rate.")});
  server.script({500, "", ErrorXml("InternalError", "oops")});
  server.script({200, "", ""});
  Client client(Options(server.endpoint(), 3));
  const std::string payload = "object bytes";
  client.put("bucket", "k", std::as_bytes(std::span(payload)));
  EXPECT_EQ(client.counts(Operation::kPut).requests, 1U);
  EXPECT_EQ(client.counts(Operation::kPut).retries, 2U);
  EXPECT_EQ(client.counts(Operation::kPut).failures, 0U);
  const auto received = server.received();
  ASSERT_EQ(received.size(), 3U);
  for (const auto& request : received) EXPECT_EQ(request.body, payload);  // resent whole
}

// As botocore: 429, and the codes of a request the server took too long to receive and of
// throttling, whatever their status (S3 sends them with 400 or 503), are retried; other 400s not.
TEST(S3Client, RetriesTooManyRequestsTimeoutsAndThrottling) {
  FakeServer server;
  server.script({429, "", ""});
  server.script({200, "", ""});
  const std::vector<std::string> codes = {"RequestTimeout",          "RequestTimeoutException",
                                          "PriorRequestNotComplete", "Throttling",
                                          "ThrottlingException",     "SlowDown"};
  for (const std::string& code : codes) {
    server.script({400, "", ErrorXml(code, "again")});
    server.script({200, "", ""});
  }
  server.script({400, "", ErrorXml("InvalidArgument", "no")});
  server.script({400, "", ""});
  Client client(Options(server.endpoint(), 3));
  const std::string payload = "x";
  for (std::size_t i = 0; i < codes.size() + 1; ++i) {
    client.put("bucket", "k", std::as_bytes(std::span(payload)));
  }
  EXPECT_EQ(client.counts(Operation::kPut).requests, codes.size() + 1);
  EXPECT_EQ(client.counts(Operation::kPut).retries, codes.size() + 1);
  EXPECT_EQ(client.counts(Operation::kPut).failures, 0U);
  dlbench::test::ExpectError([&] { client.put("bucket", "k", std::as_bytes(std::span(payload))); },
                             ExitCode::kIo, {"InvalidArgument (HTTP 400): no after 1 attempt"});
  dlbench::test::ExpectError([&] { client.head("bucket", "k"); }, ExitCode::kIo,
                             {"BadRequest (HTTP 400) after 1 attempt"});
  EXPECT_EQ(server.received().size(), 2 * codes.size() + 4);
}

// A request's time spans its attempts and backoffs; its first byte is the last attempt's.
TEST(S3Client, TimesEachRequestFromItsFirstAttemptToItsLastByte) {
  FakeServer server;
  server.script({503, "", ErrorXml("SlowDown", "slow")});
  server.script({200, "", ""});
  Client client(Options(server.endpoint(), 3));
  const std::string payload = "x";
  client.put("bucket", "k", std::as_bytes(std::span(payload)));
  const std::vector<storage::RequestCounts> all = client.requests();
  ASSERT_EQ(all.size(), kOperationCount);
  const storage::RequestCounts& put = all[static_cast<std::size_t>(Operation::kPut)];
  EXPECT_EQ(put.operation, "PUT");
  EXPECT_EQ(put.requests, 1U);
  EXPECT_EQ(put.retries, 1U);
  EXPECT_GE(put.seconds, 0.05);  // the backoff: 100 ms scaled by [0.5, 1]
  EXPECT_GE(put.first_byte_seconds, 0.05);
  EXPECT_LE(put.first_byte_seconds, put.seconds);
  EXPECT_EQ(metrics::LatencyHistogram::FromCounts(put.latency_buckets, put.latency_max).count(),
            1U);
  EXPECT_DOUBLE_EQ(put.latency_max, put.seconds);
  EXPECT_EQ(all[static_cast<std::size_t>(Operation::kGet)].requests, 0U);
  EXPECT_EQ(all[static_cast<std::size_t>(Operation::kGet)].operation, "GET");
}

TEST(S3Client, RetriesABrokenConnectionAndATruncatedBody) {
  FakeServer server;
  Reply hang_up;
  hang_up.hang_up = true;
  server.script(hang_up);
  Reply truncated{200, "", "abc"};
  truncated.truncate = true;
  server.script(truncated);
  server.script({200, "", "abcdef"});
  Client client(Options(server.endpoint(), 3));
  EXPECT_EQ(client.get_object("bucket", "k"), "abcdef");
  EXPECT_EQ(client.counts(Operation::kGet).retries, 2U);
}

TEST(S3Client, GivesUpAfterMaxAttemptsNamingTheCodeObjectAndEndpoint) {
  FakeServer server;
  for (int i = 0; i < 2; ++i) server.script({503, "", ErrorXml("SlowDown", "reduce rate")});
  Client client(Options(server.endpoint(), 2));
  const std::string message =
      dlbench::test::ExpectError([&] { client.get_object("bucket", "x/y"); }, ExitCode::kIo,
                                 {"S3 GET of s3://bucket/x/y at " + server.endpoint(),
                                  "SlowDown (HTTP 503)", "after 2 attempts"});
  EXPECT_EQ(message.find(kSecret), std::string::npos);
  EXPECT_EQ(client.counts(Operation::kGet).retries, 1U);
  EXPECT_EQ(client.counts(Operation::kGet).failures, 1U);
}

TEST(S3Client, DoesNotRetryClientErrors) {
  FakeServer server;
  server.script({403, "",
                 ErrorXml("SignatureDoesNotMatch",
                          "The request signature we calculated "
                          "does not match")});
  Client client(Options(server.endpoint(), 5));
  const std::string message = dlbench::test::ExpectError(
      [&] { client.get_object("bucket", "k"); }, ExitCode::kIo,
      {"SignatureDoesNotMatch (HTTP 403)", "s3://bucket/k", "after 1 attempt"});
  EXPECT_EQ(message.find(kSecret), std::string::npos);
  EXPECT_EQ(server.received().size(), 1U);
}

// A HEAD's answer has no body to carry an error code: the error names the status as S3 does for
// HEAD, and says what a bare 403 may be.
TEST(S3Client, AnAnswerWithoutABodyIsNamedByItsStatus) {
  FakeServer server;
  server.script({403, "", ""});
  server.script({400, "", ""});
  server.script({404, "", ""});
  server.script({418, "", ""});
  Client client(Options(server.endpoint()));
  std::vector<std::string> messages;
  messages.push_back(
      dlbench::test::ExpectError([&] { client.head("bucket", "k"); }, ExitCode::kIo,
                                 {"S3 HEAD of s3://bucket/k",
                                  "failed: Forbidden (HTTP 403): the answer carries no error "
                                  "code: a wrong secret, a missing permission or an expired "
                                  "token after 1 attempt"}));
  messages.push_back(dlbench::test::ExpectError([&] { client.head("bucket", "k"); }, ExitCode::kIo,
                                                {"failed: BadRequest (HTTP 400) after 1 attempt"}));
  messages.push_back(dlbench::test::ExpectError([&] { client.get_object("bucket", "k"); },
                                                ExitCode::kIo,
                                                {"failed: NotFound (HTTP 404) after 1 attempt"}));
  messages.push_back(
      dlbench::test::ExpectError([&] { client.get_object("bucket", "k"); }, ExitCode::kIo,
                                 {"failed: ClientError (HTTP 418) after 1 attempt"}));
  for (const std::string& message : messages) {
    EXPECT_EQ(message.find("no error code ("), std::string::npos) << message;
    EXPECT_EQ(message.find("region"), std::string::npos) << message;
  }
}

// Some servers send the error code of a HEAD in headers.
TEST(S3Client, AnAnswerWithoutABodyMayNameItsErrorInHeaders) {
  FakeServer server;
  server.script(
      {403, "x-amz-error-code: AccessDenied\r\nx-amz-error-message: Access Denied\r\n", ""});
  Client client(Options(server.endpoint()));
  dlbench::test::ExpectError([&] { client.head("bucket", "k"); }, ExitCode::kIo,
                             {"failed: AccessDenied (HTTP 403): Access Denied after 1 attempt"});
}

// An answer that says the bucket is in another region says which and what to set; the redirect
// is not followed (the request was signed for the configured region).
TEST(S3Client, AnAnswerFromAnotherRegionSaysWhichAndWhatToSet) {
  FakeServer server;
  const std::string set = ": set storage.storage_options.region or AWS_REGION";
  // HEAD: no body, the region in a header.
  server.script(
      {301, "x-amz-bucket-region: eu-west-1\r\nLocation: http://127.0.0.1:1/elsewhere\r\n", ""});
  // The region in the error body.
  server.script({400, "",
                 "<Error><Code>AuthorizationHeaderMalformed</Code><Message>the region 'us-east-1' "
                 "is wrong; expecting 'eu-central-1'</Message><Region>eu-central-1</Region>"
                 "</Error>"});
  server.script({400, "x-amz-bucket-region: ap-south-1\r\n",
                 ErrorXml("IllegalLocationConstraintException", "elsewhere")});
  // Any error whose x-amz-bucket-region is not the configured one.
  server.script({403, "x-amz-bucket-region: us-west-2\r\n", ErrorXml("AccessDenied", "no")});
  // A redirect that names no region.
  server.script({301, "", ErrorXml("PermanentRedirect", "use the right endpoint")});
  // The configured region, at another endpoint.
  server.script({301, "x-amz-bucket-region: us-east-1\r\n", ""});
  // The configured region: nothing to say about regions.
  server.script({403, "x-amz-bucket-region: us-east-1\r\n", ErrorXml("AccessDenied", "no")});
  Client client(Options(server.endpoint()));
  dlbench::test::ExpectError(
      [&] { client.head("bucket", "k"); }, ExitCode::kIo,
      {"failed: PermanentRedirect (HTTP 301) after 1 attempt: the bucket is in region eu-west-1" +
       set});
  dlbench::test::ExpectError([&] { client.get_object("bucket", "k"); }, ExitCode::kIo,
                             {"AuthorizationHeaderMalformed (HTTP 400)",
                              "after 1 attempt: the bucket is in region eu-central-1" + set});
  dlbench::test::ExpectError([&] { client.list("bucket", "p/"); }, ExitCode::kIo,
                             {"IllegalLocationConstraintException (HTTP 400): elsewhere after 1 "
                              "attempt: the bucket is in region ap-south-1" +
                              set});
  dlbench::test::ExpectError(
      [&] { client.get_object("bucket", "k"); }, ExitCode::kIo,
      {"AccessDenied (HTTP 403): no after 1 attempt: the bucket is in region us-west-2" + set});
  dlbench::test::ExpectError([&] { client.get_object("bucket", "k"); }, ExitCode::kIo,
                             {"PermanentRedirect (HTTP 301): use the right endpoint after 1 "
                              "attempt: the bucket is in another region than us-east-1" +
                              set});
  dlbench::test::ExpectError(
      [&] { client.head("bucket", "k"); }, ExitCode::kIo,
      {"after 1 attempt: the bucket is in region us-east-1, the one configured, but not at " +
       server.endpoint() + ": set storage.storage_options.endpoint_url or AWS_ENDPOINT_URL"});
  const std::string same = dlbench::test::ExpectError([&] { client.get_object("bucket", "k"); },
                                                      ExitCode::kIo, {"AccessDenied (HTTP 403)"});
  EXPECT_EQ(same.find("region"), std::string::npos) << same;
  EXPECT_EQ(server.received().size(), 7U);  // no redirect followed, nothing retried
}

constexpr char kCompleted[] =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<CompleteMultipartUploadResult><Bucket>b</Bucket>"
    "<Key>k</Key><ETag>\"e-2\"</ETag></CompleteMultipartUploadResult>";

// S3 answers CompleteMultipartUpload 200 at once and sends whitespace while it works: the body
// then says how it ended. An <Error> there is that error: retried when its code is, else the end.
TEST(S3Client, ACompleteAnswered200WithAnErrorIsThatError) {
  FakeServer server;
  server.script(
      {200, "", "\n   \n" + ErrorXml("InternalError", "We encountered an internal error")});
  server.script({200, "", kCompleted});
  server.script({200, "", "  " + ErrorXml("NoSuchUpload", "The upload does not exist")});
  server.script({200, "", ErrorXml("InternalError", "still")});
  server.script({200, "", ErrorXml("SlowDown", "slower")});
  Client client(Options(server.endpoint(), 2));
  client.complete_multipart("bucket", "k", "up-1", {"\"e1\"", "\"e2\""});
  EXPECT_EQ(client.counts(Operation::kCompleteMultipart).retries, 1U);
  EXPECT_EQ(client.counts(Operation::kCompleteMultipart).failures, 0U);
  dlbench::test::ExpectError(
      [&] { client.complete_multipart("bucket", "k", "up-1", {"\"e1\""}); }, ExitCode::kIo,
      {"S3 CompleteMultipartUpload of s3://bucket/k at " + server.endpoint(),
       "failed: NoSuchUpload (HTTP 200): The upload does not exist after 1 attempt"});
  dlbench::test::ExpectError([&] { client.complete_multipart("bucket", "k", "up-1", {"\"e1\""}); },
                             ExitCode::kIo,
                             {"failed: SlowDown (HTTP 200): slower after 2 attempts"});
  EXPECT_EQ(client.counts(Operation::kCompleteMultipart).requests, 3U);
  EXPECT_EQ(client.counts(Operation::kCompleteMultipart).retries, 2U);
  EXPECT_EQ(client.counts(Operation::kCompleteMultipart).failures, 2U);
  const auto received = server.received();
  ASSERT_EQ(received.size(), 5U);
  EXPECT_EQ(received[0].target, "/bucket/k?uploadId=up-1");
  EXPECT_EQ(received[1].body, received[0].body);  // resent whole
}

// RGW names a key holding "\x01" as "&#x01;" in these answers, which XML 1.0 forbids: the upload
// id and the result are read all the same.
TEST(S3Client, AMultipartUploadOfAKeyXmlCannotCarry) {
  FakeServer server;
  server.script({200, "",
                 "<InitiateMultipartUploadResult><Bucket>b</Bucket><Key>k&#x01;</Key><UploadId>"
                 "2~up</UploadId></InitiateMultipartUploadResult>"});
  server.script({200, "",
                 "<CompleteMultipartUploadResult><Bucket>b</Bucket><Key>k&#x01;</Key><ETag>e</ETag>"
                 "</CompleteMultipartUploadResult>"});
  server.script({404, "",
                 "<Error><Key>k&#x01;</Key><Code>NoSuchUpload</Code><Message>gone</Message>"
                 "</Error>"});
  Client client(Options(server.endpoint()));
  const std::string key = std::string("k\x01");
  EXPECT_EQ(client.create_multipart("bucket", key), "2~up");
  client.complete_multipart("bucket", key, "2~up", {"\"e1\""});
  EXPECT_EQ(client.counts(Operation::kCompleteMultipart).failures, 0U);
  dlbench::test::ExpectError([&] { client.abort_multipart("bucket", key, "2~up"); }, ExitCode::kIo,
                             {"NoSuchUpload (HTTP 404): gone"});
  const auto received = server.received();
  ASSERT_EQ(received.size(), 3U);
  EXPECT_EQ(received[0].target, "/bucket/k%01?uploads=");
}

// A 200 whose body is neither the result nor an error: the upload's fate is unknown, and a
// retry could not say it either.
TEST(S3Client, ACompleteAnswered200WithAnythingElseIsAnUnreadableAnswer) {
  FakeServer server;
  server.script({200, "", ""});
  server.script({200, "", "<html><body>OK</body></html>"});
  server.script({200, "", "<CompleteMultipartUploadResult><Key>k</Key>"});  // cut short
  Client client(Options(server.endpoint(), 3));
  for (int i = 0; i < 3; ++i) {
    dlbench::test::ExpectError(
        [&] { client.complete_multipart("bucket", "k", "up-1", {"\"e1\""}); }, ExitCode::kIo,
        {"S3 CompleteMultipartUpload of s3://bucket/k", "failed: an unreadable answer (HTTP 200)",
         "after 1 attempt"});
  }
  EXPECT_EQ(server.received().size(), 3U);
  EXPECT_EQ(client.counts(Operation::kCompleteMultipart).failures, 3U);
}

// DeleteObjects' per-key errors are DeleteResult/Error; a top-level <Error> in a 200 is the
// request's, retried when its code is.
TEST(S3Client, ADeleteAnswered200WithAnErrorIsThatError) {
  FakeServer server;
  server.script({200, "", ErrorXml("SlowDown", "slower")});
  server.script({200, "", "<DeleteResult></DeleteResult>"});
  server.script({200, "", ErrorXml("AccessDenied", "Access Denied")});
  server.script({200, "",
                 "<DeleteResult><Error><Key>k2</Key><Code>AccessDenied</Code><Message>no"
                 "</Message></Error></DeleteResult>"});
  Client client(Options(server.endpoint(), 3));
  client.delete_objects("bucket", {"k1", "k2"});
  EXPECT_EQ(client.counts(Operation::kDelete).retries, 1U);
  dlbench::test::ExpectError(
      [&] {
        client.delete_objects("bucket", {"k1", "k2"});
      },
      ExitCode::kIo,
      {"S3 DeleteObjects of s3://bucket/",
       "failed: AccessDenied (HTTP 200): Access Denied after 1 attempt"});
  dlbench::test::ExpectError(
      [&] {
        client.delete_objects("bucket", {"k1", "k2"});
      },
      ExitCode::kIo, {"DeleteObjects of s3://bucket/k2", "AccessDenied"});
  EXPECT_EQ(server.received().size(), 4U);
}

TEST(S3Client, KeepsOneConnectionAcrossRequests) {
  FakeServer server;
  Client client(Options(server.endpoint()));
  for (int i = 0; i < 5; ++i) client.get_object("bucket", "k" + std::to_string(i));
  EXPECT_EQ(server.connections(), 1);
}

TEST(S3Client, HeadSaysAbsentOn404) {
  FakeServer server;
  server.script({404, "", ""});
  server.script({200, "Last-Modified: Wed, 02 Dec 2026 01:00:00 GMT\r\n", std::string(7, 'x')});
  Client client(Options(server.endpoint()));
  EXPECT_FALSE(client.head("bucket", "absent").has_value());
  const auto info = client.head("bucket", "present");
  ASSERT_TRUE(info.has_value());
  EXPECT_EQ(info->size, 7U);
  EXPECT_EQ(info->last_modified, "Wed, 02 Dec 2026 01:00:00 GMT");
}

TEST(S3Client, ListFollowsContinuationTokens) {
  FakeServer server;
  server.script({200, "",
                 "<ListBucketResult><IsTruncated>true</IsTruncated><Contents><Key>p/a</Key>"
                 "<Size>1</Size></Contents><NextContinuationToken>t/1+=</NextContinuationToken>"
                 "</ListBucketResult>"});
  server.script({200, "",
                 "<ListBucketResult><IsTruncated>false</IsTruncated><Contents><Key>p/b</Key>"
                 "<Size>22</Size></Contents><CommonPrefixes><Prefix>p/d/</Prefix>"
                 "</CommonPrefixes></ListBucketResult>"});
  Client client(Options(server.endpoint()));
  const Listing listing = client.list("bucket", "p/", "/", 1);
  ASSERT_EQ(listing.objects.size(), 2U);
  EXPECT_EQ(listing.objects[1].key, "p/b");
  EXPECT_EQ(listing.objects[1].size, 22U);
  EXPECT_EQ(listing.common_prefixes, std::vector<std::string>{"p/d/"});
  const auto received = server.received();
  ASSERT_EQ(received.size(), 2U);
  EXPECT_NE(received[1].target.find("continuation-token=t%2F1%2B%3D"), std::string::npos);
}

// Listings ask for URL-encoded keys, as boto3 does, and decode them as botocore does: "%01" (a
// character XML 1.0 cannot carry) is the byte, '+' a space (AWS's spelling), "%2B" a '+', "%20" a
// space (RGW's spelling); the continuation token is not encoded.
TEST(S3Client, ListAsksForUrlEncodedKeysAndDecodesThem) {
  FakeServer server;
  server.script({200, "",
                 "<ListBucketResult><Prefix>p%2F</Prefix><Delimiter>%2F</Delimiter>"
                 "<EncodingType>url</EncodingType><IsTruncated>true</IsTruncated>"
                 "<Contents><Key>p%2Fa%01b</Key><Size>3</Size></Contents>"
                 "<Contents><Key>p%2Fwith+space%2Band+plus</Key><Size>4</Size></Contents>"
                 "<NextContinuationToken>1%2B/t=</NextContinuationToken></ListBucketResult>"});
  server.script({200, "",
                 "<ListBucketResult><EncodingType>url</EncodingType><IsTruncated>false"
                 "</IsTruncated><Contents><Key>p%2Fz%20%25</Key><Size>5</Size></Contents>"
                 "<CommonPrefixes><Prefix>p%2Fd+%01%2F</Prefix></CommonPrefixes>"
                 "</ListBucketResult>"});
  Client client(Options(server.endpoint()));
  const Listing listing = client.list("bucket", "p/", "/", 2);
  ASSERT_EQ(listing.objects.size(), 3U);
  EXPECT_EQ(listing.objects[0].key, std::string("p/a\x01") + "b");
  EXPECT_EQ(listing.objects[0].size, 3U);
  EXPECT_EQ(listing.objects[1].key, "p/with space+and plus");
  EXPECT_EQ(listing.objects[2].key, "p/z %");
  EXPECT_EQ(listing.common_prefixes, std::vector<std::string>{"p/d \x01/"});
  const auto received = server.received();
  ASSERT_EQ(received.size(), 2U);
  // Signed with the rest: in the canonical query, in sorted order.
  EXPECT_EQ(received[0].target,
            "/bucket/?delimiter=%2F&encoding-type=url&list-type=2&max-keys=2&prefix=p%2F");
  EXPECT_EQ(received[1].target,
            "/bucket/?continuation-token=1%252B%2Ft%3D&delimiter=%2F&encoding-type=url&"
            "list-type=2&max-keys=2&prefix=p%2F");
}

// A server that ignores encoding-type sends keys as they are: nothing to decode (botocore decodes
// only an answer whose EncodingType is url).
TEST(S3Client, ListDecodesOnlyAnAnswerThatSaysItIsEncoded) {
  FakeServer server;
  server.script({200, "",
                 "<ListBucketResult><IsTruncated>false</IsTruncated><Contents><Key>p/a+b%41"
                 "</Key><Size>1</Size></Contents></ListBucketResult>"});
  Client client(Options(server.endpoint()));
  const Listing listing = client.list("bucket", "p/");
  ASSERT_EQ(listing.objects.size(), 1U);
  EXPECT_EQ(listing.objects[0].key, "p/a+b%41");
}

// XML 1.0 cannot carry "\x01" (not even as "&#x01;": RGW refuses the body) and reads "\r" as
// "\n": such keys go out as DELETEs of their own, the others in one DeleteObjects.
TEST(S3Client, DeletesKeysXmlCannotCarryOneByOne) {
  FakeServer server;
  Client client(Options(server.endpoint()));
  client.delete_objects("bucket", {"a\tb", std::string("c\x01") + "d", "e\rf", "g\nh"});
  const auto received = server.received();
  ASSERT_EQ(received.size(), 3U);
  EXPECT_EQ(received[0].method, "DELETE");
  EXPECT_EQ(received[0].target, "/bucket/c%01d");
  EXPECT_EQ(received[1].method, "DELETE");
  EXPECT_EQ(received[1].target, "/bucket/e%0Df");
  EXPECT_EQ(received[2].method, "POST");
  EXPECT_EQ(received[2].target, "/bucket/?delete=");
  EXPECT_EQ(received[2].body,
            "<Delete><Quiet>true</Quiet><Object><Key>a\tb</Key></Object><Object><Key>g\nh</Key>"
            "</Object></Delete>");
  EXPECT_EQ(client.counts(Operation::kDelete).requests, 3U);
}

// Uploads started and not ended, page after page (NextKeyMarker, NextUploadIdMarker), keys
// asked for URL-encoded and decoded; counted as ListMultipartUploads. An answer that says
// EncodingType url (S3) has its keys and NextKeyMarker encoded; one without (RGW) its keys only.
TEST(S3Client, ListsPendingMultipartUploadsPageByPage) {
  FakeServer server;
  server.script(
      {200, "",
       "<ListMultipartUploadsResult><Bucket>bucket</Bucket><Prefix>p%2F</Prefix>"
       "<EncodingType>url</EncodingType><IsTruncated>true</IsTruncated>"
       "<NextKeyMarker>p%2Fc+d</NextKeyMarker><NextUploadIdMarker>u/2</NextUploadIdMarker>"
       "<Upload><Key>p%2Fa%01b</Key><UploadId>u1</UploadId><Initiated>2026-12-03T00:00:00Z"
       "</Initiated></Upload><Upload><Key>p%2Fc+d</Key><UploadId>u/2</UploadId></Upload>"
       "</ListMultipartUploadsResult>"});
  server.script({200, "",
                 "<ListMultipartUploadsResult><Prefix>p/</Prefix><IsTruncated>true</IsTruncated>"
                 "<NextKeyMarker>p/e f+%</NextKeyMarker><NextUploadIdMarker>u4</NextUploadIdMarker>"
                 "<Upload><Key>p/c%20d</Key><UploadId>u3</UploadId></Upload>"
                 "<Upload><Key>p/e%20f%2B%25</Key><UploadId>u4</UploadId></Upload>"
                 "</ListMultipartUploadsResult>"});
  server.script({200, "",
                 "<ListMultipartUploadsResult><EncodingType>url</EncodingType><IsTruncated>false"
                 "</IsTruncated><Upload><Key>p%2Fg</Key><UploadId>u5</UploadId></Upload>"
                 "<CommonPrefixes><Prefix>p%2Fsub%2F</Prefix></CommonPrefixes>"
                 "</ListMultipartUploadsResult>"});
  Client client(Options(server.endpoint()));
  const std::vector<PendingUpload> uploads = client.list_multipart_uploads("bucket", "p/", "/");
  ASSERT_EQ(uploads.size(), 5U);
  EXPECT_EQ(uploads[0].key, std::string("p/a\x01") + "b");
  EXPECT_EQ(uploads[0].upload_id, "u1");
  EXPECT_EQ(uploads[1].key, "p/c d");
  EXPECT_EQ(uploads[1].upload_id, "u/2");
  EXPECT_EQ(uploads[2].key, "p/c d");
  EXPECT_EQ(uploads[2].upload_id, "u3");
  EXPECT_EQ(uploads[3].key, "p/e f+%");
  EXPECT_EQ(uploads[4].key, "p/g");
  EXPECT_EQ(uploads[4].upload_id, "u5");
  const auto received = server.received();
  ASSERT_EQ(received.size(), 3U);
  EXPECT_EQ(received[0].method, "GET");
  EXPECT_EQ(received[0].target, "/bucket/?delimiter=%2F&encoding-type=url&prefix=p%2F&uploads=");
  EXPECT_EQ(received[1].target,
            "/bucket/?delimiter=%2F&encoding-type=url&key-marker=p%2Fc%20d&prefix=p%2F&"
            "upload-id-marker=u%2F2&uploads=");
  EXPECT_EQ(received[2].target,
            "/bucket/?delimiter=%2F&encoding-type=url&key-marker=p%2Fe%20f%2B%25&prefix=p%2F&"
            "upload-id-marker=u4&uploads=");
  EXPECT_EQ(client.counts(Operation::kListMultipart).requests, 3U);
  EXPECT_EQ(client.counts(Operation::kList).requests, 0U);
  EXPECT_STREQ(OperationName(Operation::kListMultipart), "ListMultipartUploads");
  const std::vector<storage::RequestCounts> all = client.requests();
  ASSERT_EQ(all.size(), kOperationCount);
  EXPECT_EQ(all.back().operation, "ListMultipartUploads");
  EXPECT_EQ(all.back().requests, 3U);
}

// RGW writes NextKeyMarker unencoded, "&#x01;" for a "\x01" (which XML 1.0 forbids): the next
// page starts after the last upload listed.
TEST(S3Client, ListsPendingUploadsPastAMarkerXmlCannotCarry) {
  FakeServer server;
  server.script({200, "",
                 "<ListMultipartUploadsResult><IsTruncated>true</IsTruncated><NextKeyMarker>"
                 "p/a&#x01;</NextKeyMarker><NextUploadIdMarker>u1</NextUploadIdMarker><Upload>"
                 "<Key>p/a%01</Key><UploadId>u1</UploadId></Upload></ListMultipartUploadsResult>"});
  server.script({200, "",
                 "<ListMultipartUploadsResult><IsTruncated>false</IsTruncated><NextKeyMarker>"
                 "p/b&#x01;</NextKeyMarker><NextUploadIdMarker>u2</NextUploadIdMarker><Upload>"
                 "<Key>p/b%01</Key><UploadId>u2</UploadId></Upload></ListMultipartUploadsResult>"});
  // With common prefixes, the last upload need not be where the page ended: refused.
  server.script({200, "",
                 "<ListMultipartUploadsResult><IsTruncated>true</IsTruncated><NextKeyMarker>"
                 "p/c&#x01;</NextKeyMarker><NextUploadIdMarker>u3</NextUploadIdMarker><Upload>"
                 "<Key>p/a</Key><UploadId>u3</UploadId></Upload><CommonPrefixes><Prefix>p/c/"
                 "</Prefix></CommonPrefixes></ListMultipartUploadsResult>"});
  Client client(Options(server.endpoint()));
  const std::vector<PendingUpload> uploads = client.list_multipart_uploads("bucket", "p/");
  ASSERT_EQ(uploads.size(), 2U);
  EXPECT_EQ(uploads[0].key, std::string("p/a\x01"));
  EXPECT_EQ(uploads[1].key, std::string("p/b\x01"));
  EXPECT_EQ(uploads[1].upload_id, "u2");
  const auto received = server.received();
  ASSERT_EQ(received.size(), 2U);
  EXPECT_EQ(received[1].target,
            "/bucket/?encoding-type=url&key-marker=p%2Fa%01&prefix=p%2F&upload-id-marker=u1&"
            "uploads=");
  dlbench::test::ExpectError([&] { client.list_multipart_uploads("bucket", "p/", "/"); },
                             ExitCode::kIo, {"ListMultipartUploads", "cannot read"});
}

// A truncated page that says not where the next starts, or names where this one started, would
// list forever: refused.
TEST(S3Client, RefusesAMultipartListingThatCannotGoOn) {
  FakeServer server;
  server.script({200, "",
                 "<ListMultipartUploadsResult><IsTruncated>true</IsTruncated>"
                 "</ListMultipartUploadsResult>"});
  server.script({200, "",
                 "<ListMultipartUploadsResult><IsTruncated>true</IsTruncated><NextKeyMarker>k"
                 "</NextKeyMarker><NextUploadIdMarker>u</NextUploadIdMarker>"
                 "</ListMultipartUploadsResult>"});
  server.script({200, "",
                 "<ListMultipartUploadsResult><IsTruncated>true</IsTruncated><NextKeyMarker>k"
                 "</NextKeyMarker><NextUploadIdMarker>u</NextUploadIdMarker>"
                 "</ListMultipartUploadsResult>"});
  server.script({200, "", "<ListMultipartUploadsResult><IsTruncated>"});
  Client client(Options(server.endpoint()));
  for (int i = 0; i < 3; ++i) {
    dlbench::test::ExpectError([&] { client.list_multipart_uploads("bucket", "p/"); },
                               ExitCode::kIo,
                               {"S3 ListMultipartUploads of s3://bucket/p/", "cannot read"});
  }
  EXPECT_EQ(server.received().size(), 4U);
}

TEST(S3Client, RefusesAnUnreadableListing) {
  FakeServer server;
  server.script({200, "", "<ListBucketResult><IsTruncated>true</IsTruncated>"});
  Client client(Options(server.endpoint()));
  dlbench::test::ExpectError([&] { client.list("bucket", "p/"); }, ExitCode::kIo,
                             {"ListObjectsV2 of s3://bucket/p/", "cannot read"});
}

TEST(S3Client, UnreachableEndpointFailsWithinSecondsAfterBoundedRetries) {
  // A port nobody listens on: bound, then closed.
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof address;
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&address), length), 0);
  ASSERT_EQ(::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length), 0);
  ::close(fd);
  const std::string endpoint = "http://127.0.0.1:" + std::to_string(ntohs(address.sin_port));
  Client client(Options(endpoint, 3));
  const auto start = std::chrono::steady_clock::now();
  dlbench::test::ExpectError([&] { client.head("bucket", "k"); }, ExitCode::kIo,
                             {"S3 HEAD of s3://bucket/k at " + endpoint, "after 3 attempts"});
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
  EXPECT_EQ(client.counts(Operation::kHead).retries, 2U);
}

TEST(S3Client, RefusesEndpointsItCannotUse) {
  dlbench::test::ExpectError([] { Client client(Options("127.0.0.1:7480")); }, ExitCode::kUsage,
                             {"'127.0.0.1:7480' has no scheme"});
  dlbench::test::ExpectError([] { Client client(Options("ftp://h")); }, ExitCode::kUsage,
                             {"must be http or https"});
  dlbench::test::ExpectError([] { Client client(Options("http://h/path")); }, ExitCode::kUsage,
                             {"without a path"});
  dlbench::test::ExpectError([] { Client client(Options("http://h", 0)); }, ExitCode::kUsage,
                             {"s3_max_attempts must be at least 1, not 0"});
}

TEST(S3Client, VirtualHostedAddressingPutsTheBucketInTheHost) {
  FakeServer server;
  // curl resolves every *.localhost name to the loopback address.
  std::string endpoint = server.endpoint();
  endpoint.replace(endpoint.find("127.0.0.1"), 9, "s3.localhost");
  ClientOptions options = Options(endpoint);
  options.path_style = false;
  Client client(options);
  client.get_object("bucket", "dir/k");
  const auto received = server.received();
  ASSERT_EQ(received.size(), 1U);
  EXPECT_EQ(received[0].target, "/dir/k");
  const std::string port = endpoint.substr(endpoint.rfind(':') + 1);
  std::string headers = received[0].headers;
  for (char& c : headers) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  EXPECT_NE(headers.find("\nhost: bucket.s3.localhost:" + port + "\r\n"), std::string::npos)
      << received[0].headers;
}

// Where no virtual host can name the bucket, the bucket goes in the path whatever
// s3_force_path_style says (as the AWS SDKs do): DLIO's S3 workloads say False and are run
// against servers addressed by IP or as localhost.
TEST(S3Client, BucketsNoVirtualHostCanNameGoInThePath) {
  FakeServer server;
  std::string named = server.endpoint();
  named.replace(named.find("127.0.0.1"), 9, "localhost");
  std::string subdomain = server.endpoint();
  subdomain.replace(subdomain.find("127.0.0.1"), 9, "s3.localhost");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {server.endpoint(), "bucket"},  // an IP address
      {named, "bucket"},              // localhost
      {subdomain, "Bucket_1"},        // not a DNS name
      {subdomain, "-bucket"},
  };
  for (const auto& [endpoint, bucket] : cases) {
    // Closed after each answer: the server serves one connection at a time, and each case
    // connects to another host name.
    server.script({200, "Connection: close\r\n", ""});
    ClientOptions options = Options(endpoint);
    options.path_style = false;
    Client client(options);
    client.get_object(bucket, "dir/k");
  }
  const auto received = server.received();
  ASSERT_EQ(received.size(), cases.size());
  for (std::size_t i = 0; i < cases.size(); ++i) {
    EXPECT_EQ(received[i].target, "/" + cases[i].second + "/dir/k") << cases[i].first;
  }
}

// The path is sent as signed: "." and ".." segments are parts of keys on S3, not steps between
// folders, and a client that removed them would send a path the signature does not cover.
TEST(S3Client, DotSegmentsOfAKeyAreSentAsTheyAre) {
  FakeServer server;
  Client client(Options(server.endpoint()));
  client.get_object("bucket", "data/./x/../k");
  client.get_object("bucket", "data/.");
  const auto received = server.received();
  ASSERT_EQ(received.size(), 2U);
  EXPECT_EQ(received[0].target, "/bucket/data/./x/../k");
  EXPECT_EQ(received[1].target, "/bucket/data/.");
}

// Credentials may be allowed to list only the prefix a run uses: the check lists one key there.
TEST(S3Client, TheCredentialsCheckListsOneKeyOfTheRunsPrefix) {
  FakeServer server;
  server.script({200, "", "<ListBucketResult><IsTruncated>false</IsTruncated></ListBucketResult>"});
  Client(Options(server.endpoint())).check_bucket("b", "team/data/");
  const auto received = server.received();
  ASSERT_EQ(received.size(), 1U);
  EXPECT_EQ(received[0].target, "/b/?list-type=2&max-keys=1&prefix=team%2Fdata%2F");
}

TEST(S3Client, ParsesObjectUris) {
  EXPECT_EQ(ParseObjectUri("s3://b/k/x").bucket, "b");
  EXPECT_EQ(ParseObjectUri("s3://b/k/x").key, "k/x");
  EXPECT_EQ(ParseObjectUri("s3://b").key, "");
  dlbench::test::ExpectError([] { ParseObjectUri("/local/path"); }, ExitCode::kUsage,
                             {"'/local/path' is not an S3 URI"});
  dlbench::test::ExpectError([] { ParseObjectUri("s3:///k"); }, ExitCode::kUsage,
                             {"names no bucket"});
}

// One event per request (category S3, named as in summary.json) on the thread that sent it: the
// payload bytes (-1 for a failed request), the time to the first byte and the attempts, retries
// and their backoffs inside its span, the object's URI as its file.
TEST(S3Client, TracesOneEventPerRequestWithItsBytesFirstByteAndAttempts) {
  FakeServer server;
  server.script({503, "", ErrorXml("SlowDown", "slow")});
  server.script({200, "", ""});
  server.script({206, "Content-Range: bytes 0-3/10\r\n", "0123"});
  server.script({403, "", ErrorXml("AccessDenied", "no")});
  const dlbench::test::TempDir dir;
  {
    trace::Recorder recorder(dlbench::test::TestRecorderOptions(dir / "t.pfw.gz"));
    Client client(Options(server.endpoint(), 3));
    const std::string payload = "twelve bytes";
    client.put("bucket", "a/k", std::as_bytes(std::span(payload)));
    std::string buffer(4, '\0');
    client.get("bucket", "a/k", 0, std::as_writable_bytes(std::span(buffer)));
    EXPECT_THROW(client.get("bucket", "a/k", 4, std::as_writable_bytes(std::span(buffer))), Error);
    recorder.finish();
  }
  const dlbench::test::TraceLines trace = dlbench::test::ReadTrace(dir / "t.pfw.gz");
  const auto puts = dlbench::test::Named(trace, "PUT");
  ASSERT_EQ(puts.size(), 1U);
  EXPECT_EQ(puts[0]["cat"], "S3");
  EXPECT_EQ(puts[0]["args"]["ret"], 12);
  EXPECT_EQ(puts[0]["args"]["attempts"], 2);
  // The backoff (100 ms scaled by [0.5, 1]) comes before the answering attempt's first byte.
  EXPECT_GE(puts[0]["args"]["first_byte_us"].get<std::int64_t>(), 50'000);
  EXPECT_LE(puts[0]["args"]["first_byte_us"].get<std::int64_t>() * 1000,
            puts[0]["dur_ns"].get<std::int64_t>());
  EXPECT_EQ(dlbench::test::PathOf(trace, puts[0]["args"]["fhash"]), "s3://bucket/a/k");
  const auto gets = dlbench::test::Named(trace, "range GET");
  ASSERT_EQ(gets.size(), 2U);
  EXPECT_EQ(gets[0]["args"]["ret"], 4);
  EXPECT_EQ(gets[0]["args"]["attempts"], 1);
  EXPECT_EQ(gets[1]["args"]["ret"], -1);  // AccessDenied
  EXPECT_EQ(gets[0]["args"]["fhash"], puts[0]["args"]["fhash"]);
}

// profiling.trace_data_dirs may name S3 folders: requests for objects under them are traced,
// and listings of them (named by their prefix), others not (a URI is not a path under the
// working folder).
TEST(S3Client, TracesOnlyTheObjectsUnderTheTracedFolders) {
  FakeServer server;
  server.script({200, "", ""});
  server.script({200, "", ""});
  for (int i = 0; i < 2; ++i) {
    server.script(
        {200, "", "<ListBucketResult><IsTruncated>false</IsTruncated></ListBucketResult>"});
  }
  const dlbench::test::TempDir dir;
  {
    trace::RecorderOptions options = dlbench::test::TestRecorderOptions(dir / "t.pfw.gz");
    options.data_dirs = {"s3://bucket/traced"};
    trace::Recorder recorder(options);
    Client client(Options(server.endpoint()));
    const std::string payload = "x";
    client.put("bucket", "traced/k", std::as_bytes(std::span(payload)));
    client.put("bucket", "other/k", std::as_bytes(std::span(payload)));
    client.list("bucket", "traced/", "/");
    client.list("bucket", "other/", "/");
    recorder.finish();
  }
  const dlbench::test::TraceLines trace = dlbench::test::ReadTrace(dir / "t.pfw.gz");
  const auto puts = dlbench::test::Named(trace, "PUT");
  ASSERT_EQ(puts.size(), 1U);
  EXPECT_EQ(dlbench::test::PathOf(trace, puts[0]["args"]["fhash"]), "s3://bucket/traced/k");
  const auto lists = dlbench::test::Named(trace, "ListObjectsV2");
  ASSERT_EQ(lists.size(), 1U);
  EXPECT_EQ(dlbench::test::PathOf(trace, lists[0]["args"]["fhash"]), "s3://bucket/traced/");
}

}  // namespace
}  // namespace dlbench::s3
