// The S3 client against a real Ceph RGW (tests/s3/rgw.sh): every request it makes, the server's
// errors as one clear message, and boto3 reading back what dlbench wrote and the other way round.
#include <gtest/gtest.h>

#include <span>
#include <string>

#include "rgw_server.h"
#include "s3/client.h"
#include "s3/object_writer.h"
#include "s3/sigv4.h"
#include "support/expect_error.h"

namespace dlbench::s3 {
namespace {

using test::Boto3;
using test::TestPrefix;

std::span<const std::byte> AsBytes(const std::string& text) {
  return std::as_bytes(std::span(text));
}

// Aborts the uploads an earlier run of the test left pending under `prefix` (ClearTestPrefix
// deletes objects only).
void AbortPendingUploads(Client& client, const std::string& bucket, const std::string& prefix) {
  for (const PendingUpload& upload : client.list_multipart_uploads(bucket, prefix)) {
    client.abort_multipart(bucket, upload.key, upload.upload_id);
  }
}

TEST(RgwClient, PutGetRangeHeadAndDelete) {
  DLBENCH_REQUIRE_RGW(server);
  Client client(server.options);
  const std::string key = TestPrefix() + "object with spaces+plus=eq&amp~.bin";
  const std::string data = test::TestData(1 * MiB + 17, 1);
  client.put(server.bucket, key, AsBytes(data));
  EXPECT_EQ(client.get_object(server.bucket, key), data);
  std::string range(1000, '\0');
  const GetResult result =
      client.get(server.bucket, key, 4096, std::as_writable_bytes(std::span(range)));
  EXPECT_EQ(result.bytes, 1000U);
  EXPECT_EQ(result.object_size, data.size());
  EXPECT_EQ(range, data.substr(4096, 1000));
  // A range across the end gives what is there; one at the end gives nothing.
  const GetResult tail =
      client.get(server.bucket, key, data.size() - 10, std::as_writable_bytes(std::span(range)));
  EXPECT_EQ(tail.bytes, 10U);
  EXPECT_EQ(
      client.get(server.bucket, key, data.size(), std::as_writable_bytes(std::span(range))).bytes,
      0U);
  const auto info = client.head(server.bucket, key);
  ASSERT_TRUE(info.has_value());
  EXPECT_EQ(info->size, data.size());
  client.delete_object(server.bucket, key);
  EXPECT_FALSE(client.head(server.bucket, key).has_value());
  client.delete_object(server.bucket, key);  // absent: no error
}

TEST(RgwClient, MultipartUploadsPartsInParallelAndBoto3ReadsItBack) {
  DLBENCH_REQUIRE_RGW(server);
  Client client(server.options);
  const std::string key = TestPrefix() + "big";
  const std::string data = test::TestData(23 * MiB + 5, 2);
  TransferPool pool(8);
  ObjectWriter writer(client, pool, server.bucket, key,
                      {.part_size = 5 * MiB, .parallel_parts = 2});
  for (std::size_t at = 0; at < data.size(); at += 777777) {
    writer.append(AsBytes(data.substr(at, 777777)));
  }
  EXPECT_FALSE(client.head(server.bucket, key).has_value()) << "visible before complete";
  writer.complete();
  EXPECT_EQ(client.counts(Operation::kUploadPart).requests, 5U);
  EXPECT_EQ(pool.threads(), 2U) << "two parts in flight at most, on threads that stay";
  EXPECT_EQ(client.counts(Operation::kCompleteMultipart).requests, 1U);
  EXPECT_EQ(Boto3(server, {"sha256", server.bucket, key}),
            std::to_string(data.size()) + " " + Sha256Hex(data) + "\n");
  EXPECT_EQ(client.get_object(server.bucket, key), data);
}

TEST(RgwClient, SmallObjectIsOnePut) {
  DLBENCH_REQUIRE_RGW(server);
  Client client(server.options);
  const std::string key = TestPrefix() + "small";
  const std::string data = test::TestData(3 * MiB, 3);
  TransferPool pool(8);
  ObjectWriter writer(client, pool, server.bucket, key,
                      {.part_size = 5 * MiB, .parallel_parts = 2});
  writer.append(AsBytes(data));
  writer.complete();
  EXPECT_EQ(client.counts(Operation::kPut).requests, 1U);
  EXPECT_EQ(client.counts(Operation::kCreateMultipart).requests, 0U);
  EXPECT_EQ(Boto3(server, {"sha256", server.bucket, key}),
            std::to_string(data.size()) + " " + Sha256Hex(data) + "\n");
}

TEST(RgwClient, AnAbandonedUploadLeavesNothing) {
  DLBENCH_REQUIRE_RGW(server);
  Client client(server.options);
  const std::string key = TestPrefix() + "abandoned";
  {
    TransferPool pool(8);
    ObjectWriter writer(client, pool, server.bucket, key,
                        {.part_size = 5 * MiB, .parallel_parts = 2});
    writer.append(AsBytes(test::TestData(12 * MiB, 4)));
  }  // destroyed before complete()
  EXPECT_EQ(client.counts(Operation::kAbortMultipart).requests, 1U);
  EXPECT_EQ(client.counts(Operation::kAbortMultipart).failures, 0U);
  EXPECT_FALSE(client.head(server.bucket, key).has_value());
}

TEST(RgwClient, ListsPageByPageAndDeletesInBatches) {
  DLBENCH_REQUIRE_RGW(server);
  Client client(server.options);
  const std::string prefix = TestPrefix();
  std::vector<std::string> keys;
  for (int i = 0; i < 23; ++i) {
    keys.push_back(prefix + (i < 20 ? "f" : "sub/f") + std::to_string(100 + i));
    client.put(server.bucket, keys.back(), AsBytes(std::to_string(i)));
  }
  const Listing all = client.list(server.bucket, prefix, "", 10);
  ASSERT_EQ(all.objects.size(), 23U);
  EXPECT_EQ(client.counts(Operation::kList).requests, 3U);
  EXPECT_EQ(all.objects[0].key, prefix + "f100");
  EXPECT_EQ(all.objects[0].size, 1U);
  const Listing folder = client.list(server.bucket, prefix, "/", 7);
  EXPECT_EQ(folder.objects.size(), 20U);
  EXPECT_EQ(folder.common_prefixes, std::vector<std::string>{prefix + "sub/"});
  EXPECT_EQ(Boto3(server, {"keys", server.bucket, prefix}).size(), [&] {
    std::size_t size = 0;
    for (const auto& key : keys) size += key.size() + 1;
    return size;
  }());
  client.delete_objects(server.bucket, keys);
  EXPECT_TRUE(client.list(server.bucket, prefix).objects.empty());
}

// A key holding "\x01" (which XML 1.0 cannot carry: RGW would write "&#x01;" into a listing that
// expat rejects), a space and a '+' is listed back byte-exact: the listing asks for URL-encoded
// keys and decodes them.
TEST(RgwClient, ListsAKeyThatXmlCannotCarry) {
  DLBENCH_REQUIRE_RGW(server);
  Client client(server.options);
  const std::string prefix = TestPrefix();
  const std::string key = prefix + "ctl\x01" + "char and space+plus%41";
  client.put(server.bucket, key, AsBytes("x"));
  const Listing listing = client.list(server.bucket, prefix);
  ASSERT_EQ(listing.objects.size(), 1U);
  EXPECT_EQ(listing.objects[0].key, key);
  EXPECT_EQ(listing.objects[0].size, 1U);
  const Listing folder = client.list(server.bucket, prefix, "/");
  ASSERT_EQ(folder.objects.size(), 1U);
  EXPECT_EQ(folder.objects[0].key, key);
  EXPECT_EQ(client.get_object(server.bucket, listing.objects[0].key), "x");
  client.delete_objects(server.bucket, {key});
  EXPECT_TRUE(client.list(server.bucket, prefix).objects.empty());
}

// An upload started and not ended is listed until it is aborted; its key (RGW URL-encodes it
// without saying so) byte-exact.
TEST(RgwClient, ListsAPendingMultipartUploadUntilItIsAborted) {
  DLBENCH_REQUIRE_RGW(server);
  Client client(server.options);
  const std::string prefix = TestPrefix();
  AbortPendingUploads(client, server.bucket, prefix);
  const OperationCounts before = client.counts(Operation::kListMultipart);
  const std::string key = prefix + "pending upload+plus";
  const std::string upload_id = client.create_multipart(server.bucket, key);
  const std::vector<PendingUpload> pending = client.list_multipart_uploads(server.bucket, prefix);
  ASSERT_EQ(pending.size(), 1U);
  EXPECT_EQ(pending[0].key, key);
  EXPECT_EQ(pending[0].upload_id, upload_id);
  client.abort_multipart(server.bucket, key, upload_id);
  EXPECT_TRUE(client.list_multipart_uploads(server.bucket, prefix).empty());
  EXPECT_EQ(client.counts(Operation::kListMultipart).requests - before.requests, 2U);
  EXPECT_EQ(client.counts(Operation::kListMultipart).failures, 0U);
}

// RGW names a key holding "\x01" as "&#x01;" in its CreateMultipartUpload and
// CompleteMultipartUpload answers, which XML 1.0 forbids: the upload goes through all the same,
// and its pending upload is listed with the key byte-exact.
TEST(RgwClient, UploadsInPartsAKeyThatXmlCannotCarry) {
  DLBENCH_REQUIRE_RGW(server);
  Client client(server.options);
  const std::string prefix = TestPrefix();
  AbortPendingUploads(client, server.bucket, prefix);
  const std::string key = prefix + "ctl\x01" + "char in parts";
  const std::string data = test::TestData(5 * MiB + 9, 5);
  const std::string upload_id = client.create_multipart(server.bucket, key);
  const std::vector<PendingUpload> pending = client.list_multipart_uploads(server.bucket, prefix);
  ASSERT_EQ(pending.size(), 1U);
  EXPECT_EQ(pending[0].key, key);
  EXPECT_EQ(pending[0].upload_id, upload_id);
  std::vector<std::string> etags;
  etags.push_back(
      client.upload_part(server.bucket, key, upload_id, 1, AsBytes(data.substr(0, 5 * MiB))));
  etags.push_back(
      client.upload_part(server.bucket, key, upload_id, 2, AsBytes(data.substr(5 * MiB))));
  client.complete_multipart(server.bucket, key, upload_id, etags);
  EXPECT_TRUE(client.list_multipart_uploads(server.bucket, prefix).empty());
  EXPECT_EQ(client.get_object(server.bucket, key), data);
  const Listing listing = client.list(server.bucket, prefix);
  ASSERT_EQ(listing.objects.size(), 1U);
  EXPECT_EQ(listing.objects[0].key, key);
  EXPECT_EQ(listing.objects[0].size, data.size());
}

TEST(RgwClient, ReadsWhatBoto3Wrote) {
  DLBENCH_REQUIRE_RGW(server);
  Client client(server.options);
  const std::string key = TestPrefix() + "from-boto3";
  const std::string sha =
      Boto3(server, {"put", server.bucket, key, std::to_string(9 * MiB + 3), "7"});
  const std::string data = client.get_object(server.bucket, key);
  EXPECT_EQ(data.size(), 9 * MiB + 3);
  EXPECT_EQ(Sha256Hex(data) + "\n", sha);
}

TEST(RgwClient, AWrongSecretIsSignatureDoesNotMatchInOneMessage) {
  DLBENCH_REQUIRE_RGW(server);
  ClientOptions options = server.options;
  options.credentials.secret_access_key = "not-the-secret-" + options.credentials.secret_access_key;
  Client client(options);
  const std::string message = dlbench::test::ExpectError(
      [&] { client.get_object(server.bucket, "any"); }, ExitCode::kIo,
      {"S3 GET of s3://" + server.bucket + "/any at " + server.options.endpoint_url,
       "SignatureDoesNotMatch (HTTP 403)", "after 1 attempt"});
  EXPECT_EQ(message.find(options.credentials.secret_access_key), std::string::npos);
  EXPECT_EQ(message.find(server.options.credentials.secret_access_key), std::string::npos);
}

// RGW answers a HEAD without a body: the error is named by the status, as S3 names it for HEAD.
TEST(RgwClient, AHeadWithAWrongSecretIsForbidden) {
  DLBENCH_REQUIRE_RGW(server);
  ClientOptions options = server.options;
  options.credentials.secret_access_key = "not-the-secret-" + options.credentials.secret_access_key;
  Client client(options);
  const std::string message = dlbench::test::ExpectError(
      [&] { client.head(server.bucket, "any"); }, ExitCode::kIo,
      {"S3 HEAD of s3://" + server.bucket + "/any at " + server.options.endpoint_url,
       "failed: Forbidden (HTTP 403): the answer carries no error code: a wrong secret, a missing "
       "permission or an expired token after 1 attempt"});
  EXPECT_EQ(message.find(options.credentials.secret_access_key), std::string::npos);
}

TEST(RgwClient, TheCheckBeforeWorkGivesExit2) {
  DLBENCH_REQUIRE_RGW(server);
  Client(server.options).check_bucket(server.bucket);
  ClientOptions wrong = server.options;
  wrong.credentials.secret_access_key = "wrong";
  Client wrong_secret(wrong);
  dlbench::test::ExpectError([&] { wrong_secret.check_bucket(server.bucket); }, ExitCode::kUsage,
                             {"SignatureDoesNotMatch (HTTP 403)", "checked before any work"});
  Client client(server.options);
  dlbench::test::ExpectError([&] { client.check_bucket("no-such-bucket-here"); }, ExitCode::kUsage,
                             {"s3://no-such-bucket-here/", "NoSuchBucket (HTTP 404)"});
}

TEST(RgwClient, HttpsWithTheServersCaBundleAndNotWithoutIt) {
  DLBENCH_REQUIRE_RGW(server);
  ClientOptions options = server.options;
  options.endpoint_url = server.https_endpoint;
  options.ca_bundle = server.ca_bundle;
  Client client(options);
  const std::string key = TestPrefix() + "over-tls";
  client.put(server.bucket, key, AsBytes("secret-free bytes"));
  EXPECT_EQ(client.get_object(server.bucket, key), "secret-free bytes");

  options.ca_bundle.clear();  // the system's CAs do not know the self-signed certificate
  Client untrusting(options);
  dlbench::test::ExpectError(
      [&] { untrusting.get_object(server.bucket, key); }, ExitCode::kIo,
      {"S3 GET of s3://" + server.bucket + "/" + key + " at " + server.https_endpoint,
       "after 1 attempt"});
}

TEST(RgwClient, AnUnknownAccessKeyIsInvalidAccessKeyId) {
  DLBENCH_REQUIRE_RGW(server);
  ClientOptions options = server.options;
  options.credentials.access_key_id = "NOSUCHKEY";
  Client client(options);
  dlbench::test::ExpectError([&] { client.list(server.bucket, ""); }, ExitCode::kIo,
                             {"ListObjectsV2", "InvalidAccessKeyId (HTTP 403)"});
}

TEST(RgwClient, AMissingBucketIsNoSuchBucket) {
  DLBENCH_REQUIRE_RGW(server);
  Client client(server.options);
  dlbench::test::ExpectError(
      [&] { client.put("no-such-bucket-here", "k", AsBytes("x")); }, ExitCode::kIo,
      {"S3 PUT of s3://no-such-bucket-here/k at " + server.options.endpoint_url,
       "NoSuchBucket (HTTP 404)"});
  dlbench::test::ExpectError([&] { client.get_object(server.bucket, TestPrefix() + "absent"); },
                             ExitCode::kIo, {"NoSuchKey (HTTP 404)"});
}

}  // namespace
}  // namespace dlbench::s3
