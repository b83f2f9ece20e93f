// Answers that are errors, against a scripted local server (fake_server.h): what the request's
// error says (s3/answer_errors.h: the server's code and message, else a header's, else the
// status's name; the object, the endpoint, what to set when the bucket is in another region;
// never the secret), which answers are retried, and how the client retries and counts them
// (s3/client.h: attempts, broken connections, a 200 whose body is an error).
#include "s3/answer_errors.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <ostream>
#include <string>
#include <vector>

#include "fake_server.h"
#include "s3/client.h"
#include "support/expect_error.h"

namespace dlbench::s3 {
namespace {

using test::ClientOptionsFor;
using test::ErrorXml;
using test::FakeServer;
using test::kSecret;
using test::Reply;

// The request a case sends: HEAD, GET, PUT of s3://bucket/k, or ListObjectsV2 of s3://bucket/p/.
enum class Request { kHead, kGet, kPut, kList };

Operation OperationOf(Request request) {
  switch (request) {
    case Request::kHead:
      return Operation::kHead;
    case Request::kGet:
      return Operation::kGet;
    case Request::kPut:
      return Operation::kPut;
    case Request::kList:
      return Operation::kList;
  }
  return Operation::kGet;
}

void Send(Client& client, Request request) {
  const std::string payload = "x";
  switch (request) {
    case Request::kHead:
      client.head("bucket", "k");
      return;
    case Request::kGet:
      client.get_object("bucket", "k");
      return;
    case Request::kPut:
      client.put("bucket", "k", std::as_bytes(std::span(payload)));
      return;
    case Request::kList:
      client.list("bucket", "p/");
      return;
  }
}

// One answer that ends the request at once (not retried, no redirect followed), and what the
// request's error says: each of `says` ("{endpoint}" stands for the server's), none of
// `never_says`.
struct FailedAnswer {
  std::string name;
  Request request;
  Reply answer;
  std::vector<std::string> says;
  std::vector<std::string> never_says = {};
};

void PrintTo(const FailedAnswer& answer, std::ostream* out) { *out << answer.name; }

const std::string kSetRegion = ": set storage.storage_options.region or AWS_REGION";

const std::vector<FailedAnswer> kFailedAnswers = {
    // A HEAD's answer has no body to carry an error code: the error names the status as S3 does
    // for HEAD, and says what a bare 403 may be.
    {"ForbiddenWithoutABody",
     Request::kHead,
     {403, "", ""},
     {"S3 HEAD of s3://bucket/k",
      "failed: Forbidden (HTTP 403): the answer carries no error code: a wrong secret, a missing "
      "permission or an expired token after 1 attempt"},
     {"no error code (", "region"}},
    {"BadRequestWithoutABody",
     Request::kHead,
     {400, "", ""},
     {"failed: BadRequest (HTTP 400) after 1 attempt"},
     {"no error code (", "region"}},
    {"NotFoundWithoutABody",
     Request::kGet,
     {404, "", ""},
     {"failed: NotFound (HTTP 404) after 1 attempt"},
     {"no error code (", "region"}},
    {"AStatusS3DoesNotNameWithoutABody",
     Request::kGet,
     {418, "", ""},
     {"failed: ClientError (HTTP 418) after 1 attempt"},
     {"no error code (", "region"}},
    // Some servers send the error code of a HEAD in headers.
    {"AnErrorNamedInHeaders",
     Request::kHead,
     {403, "x-amz-error-code: AccessDenied\r\nx-amz-error-message: Access Denied\r\n", ""},
     {"failed: AccessDenied (HTTP 403): Access Denied after 1 attempt"}},
    // Client errors are not retried, and never show the secret.
    {"SignatureDoesNotMatch",
     Request::kGet,
     {403, "",
      ErrorXml("SignatureDoesNotMatch", "The request signature we calculated does not match")},
     {"SignatureDoesNotMatch (HTTP 403)", "s3://bucket/k", "after 1 attempt"}},
    {"InvalidArgument",
     Request::kPut,
     {400, "", ErrorXml("InvalidArgument", "no")},
     {"InvalidArgument (HTTP 400): no after 1 attempt"}},
    // An answer that says the bucket is in another region says which and what to set; the
    // redirect is not followed (the request was signed for the configured region, us-east-1).
    {"ARedirectNamingTheRegionInAHeader",
     Request::kHead,
     {301, "x-amz-bucket-region: eu-west-1\r\nLocation: http://127.0.0.1:1/elsewhere\r\n", ""},
     {"failed: PermanentRedirect (HTTP 301) after 1 attempt: the bucket is in region eu-west-1" +
      kSetRegion}},
    {"ASignatureForTheWrongRegionNamingItInTheBody",
     Request::kGet,
     {400, "",
      "<Error><Code>AuthorizationHeaderMalformed</Code><Message>the region 'us-east-1' is wrong; "
      "expecting 'eu-central-1'</Message><Region>eu-central-1</Region></Error>"},
     {"AuthorizationHeaderMalformed (HTTP 400)",
      "after 1 attempt: the bucket is in region eu-central-1" + kSetRegion}},
    {"IllegalLocationConstraint",
     Request::kList,
     {400, "x-amz-bucket-region: ap-south-1\r\n",
      ErrorXml("IllegalLocationConstraintException", "elsewhere")},
     {"IllegalLocationConstraintException (HTTP 400): elsewhere after 1 attempt: the bucket is in "
      "region ap-south-1" +
      kSetRegion}},
    // Any error whose x-amz-bucket-region is not the configured one.
    {"AnErrorFromAnotherRegion",
     Request::kGet,
     {403, "x-amz-bucket-region: us-west-2\r\n", ErrorXml("AccessDenied", "no")},
     {"AccessDenied (HTTP 403): no after 1 attempt: the bucket is in region us-west-2" +
      kSetRegion}},
    {"ARedirectNamingNoRegion",
     Request::kGet,
     {301, "", ErrorXml("PermanentRedirect", "use the right endpoint")},
     {"PermanentRedirect (HTTP 301): use the right endpoint after 1 attempt: the bucket is in "
      "another region than us-east-1" +
      kSetRegion}},
    {"ARedirectInTheConfiguredRegion",
     Request::kHead,
     {301, "x-amz-bucket-region: us-east-1\r\n", ""},
     {"after 1 attempt: the bucket is in region us-east-1, the one configured, but not at "
      "{endpoint}: set storage.storage_options.endpoint_url or AWS_ENDPOINT_URL"}},
    // The configured region: nothing to say about regions.
    {"AnErrorFromTheConfiguredRegion",
     Request::kGet,
     {403, "x-amz-bucket-region: us-east-1\r\n", ErrorXml("AccessDenied", "no")},
     {"AccessDenied (HTTP 403)"},
     {"region"}},
};

class S3FailedAnswer : public ::testing::TestWithParam<FailedAnswer> {};

TEST_P(S3FailedAnswer, EndsTheRequestSayingWhatItWas) {
  const FailedAnswer& answer = GetParam();
  FakeServer server;
  server.script(answer.answer);
  Client client(ClientOptionsFor(server.endpoint(), 3));
  std::vector<std::string> says = {" of s3://bucket/", " at " + server.endpoint()};
  for (std::string piece : answer.says) {
    if (const std::size_t at = piece.find("{endpoint}"); at != std::string::npos) {
      piece.replace(at, std::string("{endpoint}").size(), server.endpoint());
    }
    says.push_back(piece);
  }
  const std::string message =
      dlbench::test::ExpectError([&] { Send(client, answer.request); }, ExitCode::kIo, says);
  EXPECT_EQ(message.find(kSecret), std::string::npos) << message;
  for (const std::string& piece : answer.never_says) {
    EXPECT_EQ(message.find(piece), std::string::npos) << piece << " in " << message;
  }
  EXPECT_EQ(server.received().size(), 1U);
  EXPECT_EQ(client.counts(OperationOf(answer.request)).retries, 0U);
  EXPECT_EQ(client.counts(OperationOf(answer.request)).failures, 1U);
}

INSTANTIATE_TEST_SUITE_P(Scripted, S3FailedAnswer, ::testing::ValuesIn(kFailedAnswers),
                         [](const auto& answer_info) { return answer_info.param.name; });

// As botocore: 429 and the server's errors (500, 502, 503, 504), and the codes of a request the
// server took too long to receive, of throttling and of a 500 and a 503, whatever their status
// (S3 sends some with 400), are retried: twice here, each time resent whole and counted, then
// answered 200.
struct RetriedAnswer {
  std::string name;
  Reply answer;
};

void PrintTo(const RetriedAnswer& answer, std::ostream* out) { *out << answer.name; }

std::vector<RetriedAnswer> RetriedAnswers() {
  std::vector<RetriedAnswer> answers;
  for (const int status : {429, 500, 502, 503, 504}) {
    answers.push_back({"Http" + std::to_string(status), {status, "", ""}});
  }
  for (const char* code :
       {"RequestTimeout", "RequestTimeoutException", "PriorRequestNotComplete", "Throttling",
        "ThrottlingException", "SlowDown", "InternalError", "ServiceUnavailable"}) {
    answers.push_back({code, {400, "", ErrorXml(code, "again")}});
  }
  return answers;
}

class S3RetriedAnswer : public ::testing::TestWithParam<RetriedAnswer> {};

TEST_P(S3RetriedAnswer, IsRetriedAndCounted) {
  FakeServer server;
  server.script(GetParam().answer);
  server.script(GetParam().answer);
  server.script({200, "", ""});
  Client client(ClientOptionsFor(server.endpoint(), 3));
  const std::string payload = "object bytes";
  client.put("bucket", "k", std::as_bytes(std::span(payload)));
  EXPECT_EQ(client.counts(Operation::kPut).requests, 1U);
  EXPECT_EQ(client.counts(Operation::kPut).retries, 2U);
  EXPECT_EQ(client.counts(Operation::kPut).failures, 0U);
  const auto received = server.received();
  ASSERT_EQ(received.size(), 3U);
  for (const auto& request : received) EXPECT_EQ(request.body, payload);
}

INSTANTIATE_TEST_SUITE_P(Scripted, S3RetriedAnswer, ::testing::ValuesIn(RetriedAnswers()),
                         [](const auto& answer_info) { return answer_info.param.name; });

TEST(S3Client, RetriesABrokenConnectionAndATruncatedBody) {
  FakeServer server;
  Reply hang_up;
  hang_up.hang_up = true;
  server.script(hang_up);
  Reply truncated{200, "", "abc"};
  truncated.truncate = true;
  server.script(truncated);
  server.script({200, "", "abcdef"});
  Client client(ClientOptionsFor(server.endpoint(), 3));
  EXPECT_EQ(client.get_object("bucket", "k"), "abcdef");
  EXPECT_EQ(client.counts(Operation::kGet).retries, 2U);
}

TEST(S3Client, GivesUpAfterMaxAttemptsNamingTheCodeObjectAndEndpoint) {
  FakeServer server;
  for (int i = 0; i < 2; ++i) server.script({503, "", ErrorXml("SlowDown", "reduce rate")});
  Client client(ClientOptionsFor(server.endpoint(), 2));
  const std::string message =
      dlbench::test::ExpectError([&] { client.get_object("bucket", "x/y"); }, ExitCode::kIo,
                                 {"S3 GET of s3://bucket/x/y at " + server.endpoint(),
                                  "SlowDown (HTTP 503)", "after 2 attempts"});
  EXPECT_EQ(message.find(kSecret), std::string::npos);
  EXPECT_EQ(client.counts(Operation::kGet).retries, 1U);
  EXPECT_EQ(client.counts(Operation::kGet).failures, 1U);
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
  Client client(ClientOptionsFor(server.endpoint(), 2));
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

// A 200 whose body is neither the result nor an error: the upload's fate is unknown, and a
// retry could not say it either.
TEST(S3Client, ACompleteAnswered200WithAnythingElseIsAnUnreadableAnswer) {
  FakeServer server;
  server.script({200, "", ""});
  server.script({200, "", "<html><body>OK</body></html>"});
  server.script({200, "", "<CompleteMultipartUploadResult><Key>k</Key>"});  // cut short
  Client client(ClientOptionsFor(server.endpoint(), 3));
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
  Client client(ClientOptionsFor(server.endpoint(), 3));
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
  Client client(ClientOptionsFor(endpoint, 3));
  const auto start = std::chrono::steady_clock::now();
  dlbench::test::ExpectError([&] { client.head("bucket", "k"); }, ExitCode::kIo,
                             {"S3 HEAD of s3://bucket/k at " + endpoint, "after 3 attempts"});
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
  EXPECT_EQ(client.counts(Operation::kHead).retries, 2U);
}

}  // namespace
}  // namespace dlbench::s3
