#include "s3/xml.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace dlbench::s3 {
namespace {

TEST(S3Xml, ReadsTheErrorCodeAndMessage) {
  const ErrorBody error = ParseErrorBody(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>NoSuchBucket</Code>"
      "<Message>The specified bucket does not exist</Message><BucketName>x</BucketName></Error>");
  EXPECT_EQ(error.code, "NoSuchBucket");
  EXPECT_EQ(error.message, "The specified bucket does not exist");
  EXPECT_EQ(error.region, "");
  EXPECT_EQ(ParseErrorBody("<Error><Code>PermanentRedirect</Code><Region>eu-west-1</Region>"
                           "</Error>")
                .region,
            "eu-west-1");
}

TEST(S3Xml, AnythingElseHasNoCode) {
  EXPECT_EQ(ParseErrorBody("").code, "");
  EXPECT_EQ(ParseErrorBody("<html><body>Bad Gateway</body></html>").code, "");
  EXPECT_EQ(ParseErrorBody("<Error><Code>Trunc").code, "");
}

TEST(S3Xml, GivesPathsWithNamespacesAndEntities) {
  std::vector<std::string> seen;
  EXPECT_TRUE(
      ParseXml("<ListBucketResult xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"><Contents>"
               "<Key>a&amp;b</Key></Contents></ListBucketResult>",
               [&](std::string_view path, std::string_view text) {
                 seen.push_back(std::string(path) + "=" + std::string(text));
               }));
  EXPECT_EQ(seen, (std::vector<std::string>{"ListBucketResult/Contents/Key=a&b",
                                            "ListBucketResult/Contents=", "ListBucketResult="}));
  EXPECT_FALSE(ParseXml("<a><b></a>", [](std::string_view, std::string_view) {}));
}

TEST(S3Xml, NamesTheRootElementOfAWellFormedDocument) {
  EXPECT_EQ(RootElement("\n  <?xml version=\"1.0\"?><Error><Code>X</Code></Error>"), "Error");
  EXPECT_EQ(RootElement("<?xml version=\"1.0\"?>\n  <Error><Code>X</Code></Error>"), "Error");
  EXPECT_EQ(RootElement("<CompleteMultipartUploadResult xmlns=\"http://s3.amazonaws.com/doc/"
                        "2006-03-01/\"><Key>k</Key></CompleteMultipartUploadResult>"),
            "CompleteMultipartUploadResult");
  EXPECT_EQ(RootElement(""), "");
  EXPECT_EQ(RootElement("<Error><Code>X</Code>"), "");
  EXPECT_EQ(RootElement("Bad Gateway"), "");
}

// RGW writes a key holding "\x01" as "&#x01;" (XML 1.0 forbids it, even so): answers whose keys
// dlbench does not read still give their root, code and upload id.
TEST(S3Xml, ReplacesCharacterReferencesXmlForbids) {
  EXPECT_EQ(
      ReplaceForbiddenCharacterReferences("a&#x01;b&#1;c&#x1F;&#xFFFE;&#x110000;&#99999999999;"),
      "a\xEF\xBF\xBD"
      "b\xEF\xBF\xBD"
      "c\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");
  // Allowed characters, escaped text, and what is no character reference stay.
  const std::string kept = "&#x41;&#10;&#x9;&#xD7FF;&#x10000;&amp;#x01;&#;&#x;&#x1&#12 x&#";
  EXPECT_EQ(ReplaceForbiddenCharacterReferences(kept), kept);
  const std::string completed =
      "<CompleteMultipartUploadResult><Key>a&#x01;b</Key><ETag>e</ETag>"
      "</CompleteMultipartUploadResult>";
  EXPECT_FALSE(ParseXml(completed, [](std::string_view, std::string_view) {}));
  EXPECT_EQ(RootElement(completed), "CompleteMultipartUploadResult");
  const ErrorBody error =
      ParseErrorBody("<Error><Code>NoSuchKey</Code><Key>a&#1;</Key><Message>m</Message></Error>");
  EXPECT_EQ(error.code, "NoSuchKey");
  EXPECT_EQ(error.message, "m");
}

// As urllib's unquote_plus (botocore's decoding of encoding-type=url listings), on bytes.
TEST(S3Xml, DecodesUrlEncodedListingValues) {
  EXPECT_EQ(UrlDecodeListingValue("a%01b"), std::string("a\x01") + "b");
  EXPECT_EQ(UrlDecodeListingValue("a+b%2Bc%20d"), "a b+c d");
  EXPECT_EQ(UrlDecodeListingValue("%E2%82%ac%2f"), "\xE2\x82\xAC/");  // either case of hex
  EXPECT_EQ(UrlDecodeListingValue("%00"), std::string(1, '\0'));
  // A '%' without two hex digits after it stays.
  EXPECT_EQ(UrlDecodeListingValue("100%"), "100%");
  EXPECT_EQ(UrlDecodeListingValue("%4"), "%4");
  EXPECT_EQ(UrlDecodeListingValue("%zz%4g"), "%zz%4g");
  EXPECT_EQ(UrlDecodeListingValue(""), "");
}

}  // namespace
}  // namespace dlbench::s3
