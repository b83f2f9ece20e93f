// The signer against AWS's published S3 examples (Amazon S3 API reference, "Signature
// calculations for the Authorization header: transferring payload in a single chunk"): key
// AKIAIOSFODNN7EXAMPLE, 24 May 2013, bucket examplebucket, region us-east-1.
#include "s3/sigv4.h"

#include <gtest/gtest.h>

#include <string>

namespace dlbench::s3 {
namespace {

const Credentials kExampleCredentials{"AKIAIOSFODNN7EXAMPLE",
                                      "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", ""};

SigningInput ExampleInput(std::string method, std::string uri) {
  SigningInput input;
  input.method = std::move(method);
  input.canonical_uri = std::move(uri);
  input.amz_date = "20130524T000000Z";
  input.region = "us-east-1";
  input.payload_hash = std::string(kEmptyPayloadHash);
  input.headers = {{"Host", "examplebucket.s3.amazonaws.com"},
                   {"x-amz-date", "20130524T000000Z"},
                   {"x-amz-content-sha256", std::string(kEmptyPayloadHash)}};
  return input;
}

TEST(SigV4, GetObjectWithRangeMatchesAwsExample) {
  SigningInput input = ExampleInput("GET", "/test.txt");
  input.headers.emplace_back("Range", "bytes=0-9");
  EXPECT_EQ(
      CanonicalRequest(input),
      "GET\n/test.txt\n\nhost:examplebucket.s3.amazonaws.com\nrange:bytes=0-9\n"
      "x-amz-content-sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\n"
      "x-amz-date:20130524T000000Z\n\nhost;range;x-amz-content-sha256;x-amz-date\n"
      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(StringToSign(input, CanonicalRequest(input)),
            "AWS4-HMAC-SHA256\n20130524T000000Z\n20130524/us-east-1/s3/aws4_request\n"
            "7344ae5b7ee6c3e7e6b0fe0640412a37625d1fbfff95c48bbb2dc43964946972");
  EXPECT_EQ(Authorization(input, kExampleCredentials),
            "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "
            "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, "
            "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41");
}

TEST(SigV4, PutObjectMatchesAwsExample) {
  const std::string payload = "Welcome to Amazon S3.";
  EXPECT_EQ(Sha256Hex(payload), "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072");
  SigningInput input = ExampleInput("PUT", "/" + UriEncodePath("test$file.text"));
  EXPECT_EQ(input.canonical_uri, "/test%24file.text");
  input.payload_hash = Sha256Hex(payload);
  input.headers = {{"Host", "examplebucket.s3.amazonaws.com"},
                   {"Date", "Fri, 24 May 2013 00:00:00 GMT"},
                   {"x-amz-date", "20130524T000000Z"},
                   {"x-amz-storage-class", "REDUCED_REDUNDANCY"},
                   {"x-amz-content-sha256", input.payload_hash}};
  EXPECT_EQ(StringToSign(input, CanonicalRequest(input)),
            "AWS4-HMAC-SHA256\n20130524T000000Z\n20130524/us-east-1/s3/aws4_request\n"
            "9e0e90d9c76de8fa5b200d8c849cd5b8dc7a3be3951ddb7f6a76b4158342019d");
  EXPECT_EQ(Authorization(input, kExampleCredentials),
            "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "
            "SignedHeaders=date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class, "
            "Signature=98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd");
}

TEST(SigV4, GetBucketLifecycleMatchesAwsExample) {
  SigningInput input = ExampleInput("GET", "/");
  input.query = {{"lifecycle", ""}};
  EXPECT_EQ(CanonicalQuery(input.query), "lifecycle=");
  EXPECT_EQ(Authorization(input, kExampleCredentials),
            "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "
            "SignedHeaders=host;x-amz-content-sha256;x-amz-date, "
            "Signature=fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543");
}

TEST(SigV4, ListObjectsMatchesAwsExample) {
  SigningInput input = ExampleInput("GET", "/");
  input.query = {{"prefix", "J"}, {"max-keys", "2"}};  // sorted by the signer
  EXPECT_EQ(CanonicalQuery(input.query), "max-keys=2&prefix=J");
  EXPECT_EQ(Authorization(input, kExampleCredentials),
            "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "
            "SignedHeaders=host;x-amz-content-sha256;x-amz-date, "
            "Signature=34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7");
}

TEST(SigV4, EncodesEveryByteButUnreservedOnceAndKeepsPathSlashes) {
  EXPECT_EQ(UriEncode("a b/c+d=e&f%20~g_h-i.j", true), "a%20b/c%2Bd%3De%26f%2520~g_h-i.j");
  EXPECT_EQ(UriEncode("a/b", false), "a%2Fb");
  EXPECT_EQ(UriEncode("\xc3\xa9", true), "%C3%A9");  // UTF-8 bytes, upper-case hex
  // No normalisation: "a//b" and "a/./b" are distinct S3 keys.
  EXPECT_EQ(UriEncodePath("a//b/./c/../d"), "a//b/./c/../d");
}

TEST(SigV4, TrimsHeaderValuesAndFoldsInnerSpaces) {
  SigningInput input = ExampleInput("GET", "/x");
  input.headers.emplace_back("X-Amz-Meta-Note", "  two   words  ");
  EXPECT_NE(CanonicalRequest(input).find("\nx-amz-meta-note:two words\n"), std::string::npos);
}

TEST(SigV4, FormatsAmzDateInUtc) {
  EXPECT_EQ(AmzDate(1369353600), "20130524T000000Z");
  EXPECT_EQ(AmzDate(0), "19700101T000000Z");
}

TEST(SigV4, Md5Base64MatchesRfc1321Vector) {
  // MD5("abc") = 900150983cd24fb0d6963f7d28e17f72.
  EXPECT_EQ(Md5Base64("abc"), "kAFQmDzST7DWlj99KOF/cg==");
}

}  // namespace
}  // namespace dlbench::s3
