// The client's requests against a scripted local server (fake_server.h): what goes on the wire
// (signing, addressing, ranges, listings, multipart uploads, deletes), what the answers are read
// as, the counts and times of each request, and the trace event each request leaves. Answers
// that are errors, and retries: answer_errors_test.cpp.
#include "s3/client.h"

#include <gtest/gtest.h>

#include <cctype>
#include <string>
#include <vector>

#include "fake_server.h"
#include "support/expect_error.h"
#include "support/test_support.h"
#include "trace/recorder.h"
#include "unit/trace/trace_lines.h"

namespace dlbench::s3 {
namespace {

using test::ClientOptionsFor;
using test::ErrorXml;
using test::FakeServer;
using test::kSecret;

TEST(S3Client, SignsPathStyleRequestsAndReadsRanges) {
  FakeServer server;
  server.script({206, "Content-Range: bytes 2-5/10\r\n", "2345"});
  Client client(ClientOptionsFor(server.endpoint()));
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
  Client client(ClientOptionsFor(server.endpoint()));
  std::string buffer(4, '\0');
  const GetResult result = client.get("bucket", "k", 10, std::as_writable_bytes(std::span(buffer)));
  EXPECT_EQ(result.bytes, 0U);
  EXPECT_EQ(result.object_size, 10U);
  dlbench::test::ExpectError(
      [&] { client.get("bucket", "k", 0, std::as_writable_bytes(std::span(buffer))); },
      ExitCode::kIo, {"S3 range GET of s3://bucket/k", "AccessDenied (HTTP 403)"});
  EXPECT_EQ(server.received().size(), 2U);  // no HEAD behind either
}

// A request's time spans its attempts and backoffs; its first byte is the last attempt's.
TEST(S3Client, TimesEachRequestFromItsFirstAttemptToItsLastByte) {
  FakeServer server;
  server.script({503, "", ErrorXml("SlowDown", "slow")});
  server.script({200, "", ""});
  Client client(ClientOptionsFor(server.endpoint(), 3));
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
  Client client(ClientOptionsFor(server.endpoint()));
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

TEST(S3Client, KeepsOneConnectionAcrossRequests) {
  FakeServer server;
  Client client(ClientOptionsFor(server.endpoint()));
  for (int i = 0; i < 5; ++i) client.get_object("bucket", "k" + std::to_string(i));
  EXPECT_EQ(server.connections(), 1);
}

TEST(S3Client, HeadSaysAbsentOn404) {
  FakeServer server;
  server.script({404, "", ""});
  server.script({200, "Last-Modified: Wed, 02 Dec 2026 01:00:00 GMT\r\n", std::string(7, 'x')});
  Client client(ClientOptionsFor(server.endpoint()));
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
  Client client(ClientOptionsFor(server.endpoint()));
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
  Client client(ClientOptionsFor(server.endpoint()));
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
  Client client(ClientOptionsFor(server.endpoint()));
  const Listing listing = client.list("bucket", "p/");
  ASSERT_EQ(listing.objects.size(), 1U);
  EXPECT_EQ(listing.objects[0].key, "p/a+b%41");
}

// XML 1.0 cannot carry "\x01" (not even as "&#x01;": RGW refuses the body) and reads "\r" as
// "\n": such keys go out as DELETEs of their own, the others in one DeleteObjects.
TEST(S3Client, DeletesKeysXmlCannotCarryOneByOne) {
  FakeServer server;
  Client client(ClientOptionsFor(server.endpoint()));
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
  Client client(ClientOptionsFor(server.endpoint()));
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
  Client client(ClientOptionsFor(server.endpoint()));
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
  Client client(ClientOptionsFor(server.endpoint()));
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
  Client client(ClientOptionsFor(server.endpoint()));
  dlbench::test::ExpectError([&] { client.list("bucket", "p/"); }, ExitCode::kIo,
                             {"ListObjectsV2 of s3://bucket/p/", "cannot read"});
}

TEST(S3Client, RefusesEndpointsItCannotUse) {
  dlbench::test::ExpectError([] { Client client(ClientOptionsFor("127.0.0.1:7480")); },
                             ExitCode::kUsage, {"'127.0.0.1:7480' has no scheme"});
  dlbench::test::ExpectError([] { Client client(ClientOptionsFor("ftp://h")); }, ExitCode::kUsage,
                             {"must be http or https"});
  dlbench::test::ExpectError([] { Client client(ClientOptionsFor("http://h/path")); },
                             ExitCode::kUsage, {"without a path"});
  dlbench::test::ExpectError([] { Client client(ClientOptionsFor("http://h", 0)); },
                             ExitCode::kUsage, {"s3_max_attempts must be at least 1, not 0"});
}

TEST(S3Client, VirtualHostedAddressingPutsTheBucketInTheHost) {
  FakeServer server;
  // curl resolves every *.localhost name to the loopback address.
  std::string endpoint = server.endpoint();
  endpoint.replace(endpoint.find("127.0.0.1"), 9, "s3.localhost");
  ClientOptions options = ClientOptionsFor(endpoint);
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
    ClientOptions options = ClientOptionsFor(endpoint);
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
  Client client(ClientOptionsFor(server.endpoint()));
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
  Client(ClientOptionsFor(server.endpoint())).check_bucket("b", "team/data/");
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
    Client client(ClientOptionsFor(server.endpoint(), 3));
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
    Client client(ClientOptionsFor(server.endpoint()));
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
