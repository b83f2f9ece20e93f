// The client's listings: ListObjectsV2 and ListMultipartUploads, page after page, their keys
// asked for URL-encoded and decoded, and the answers a listing cannot go on from refused.
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "s3/client.h"
#include "s3/client_request.h"
#include "s3/xml.h"
#include "util/error.h"

namespace dlbench::s3 {
namespace {

Bytes ParseSize(std::string_view text) {
  Bytes value = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') break;
    value = value * 10 + static_cast<Bytes>(c - '0');
  }
  return value;
}

}  // namespace

std::vector<PendingUpload> Client::list_multipart_uploads(const std::string& bucket,
                                                          const std::string& prefix,
                                                          const std::string& delimiter) {
  std::vector<PendingUpload> uploads;
  std::string key_marker;
  std::string upload_id_marker;
  for (;;) {
    Request request(Operation::kListMultipart, "GET", bucket);
    request.subject = prefix;
    request.query = {{"uploads", ""}, {"encoding-type", "url"}};
    if (!prefix.empty()) request.query.emplace_back("prefix", prefix);
    if (!delimiter.empty()) request.query.emplace_back("delimiter", delimiter);
    if (!key_marker.empty()) request.query.emplace_back("key-marker", key_marker);
    if (!upload_id_marker.empty()) request.query.emplace_back("upload-id-marker", upload_id_marker);
    const HttpResponse response = send(request);
    bool truncated = false;
    std::optional<std::string> encoding;  // the answer's EncodingType, when it has one
    std::string next_key;
    std::string next_upload_id;
    bool common_prefixes = false;
    PendingUpload upload;
    std::vector<PendingUpload> page;
    const auto parse = [&](std::string_view xml) {
      truncated = false;
      encoding.reset();
      next_key.clear();
      next_upload_id.clear();
      common_prefixes = false;
      page.clear();
      return ParseXml(xml, [&](std::string_view path, std::string_view text) {
        if (path == "ListMultipartUploadsResult/EncodingType") encoding = text;
        if (path == "ListMultipartUploadsResult/Upload/Key") upload.key = text;
        if (path == "ListMultipartUploadsResult/Upload/UploadId") upload.upload_id = text;
        if (path == "ListMultipartUploadsResult/Upload") page.push_back(std::move(upload));
        if (path == "ListMultipartUploadsResult/IsTruncated") truncated = text == "true";
        if (path == "ListMultipartUploadsResult/NextKeyMarker") next_key = text;
        if (path == "ListMultipartUploadsResult/NextUploadIdMarker") next_upload_id = text;
        if (path == "ListMultipartUploadsResult/CommonPrefixes") common_prefixes = true;
      });
    };
    bool well_formed = parse(response.body);
    // RGW writes NextKeyMarker unencoded, a "\x01" in it as "&#x01;", which XML 1.0 forbids (the
    // keys come encoded): read past it, and take the marker from the last upload listed.
    const bool marker_unreadable = !well_formed;
    if (marker_unreadable) well_formed = parse(ReplaceForbiddenCharacterReferences(response.body));
    // An answer that says it is URL-encoded has its keys and NextKeyMarker encoded (S3). RGW
    // encodes the keys without saying so, and writes NextKeyMarker as it is.
    if (!encoding || *encoding == "url") {
      for (PendingUpload& listed : page) listed.key = UrlDecodeListingValue(listed.key);
    }
    if (encoding == "url") next_key = UrlDecodeListingValue(next_key);
    if (truncated && marker_unreadable && !page.empty() && !common_prefixes) {
      next_key = page.back().key;
      next_upload_id = page.back().upload_id;
    }
    // A truncated page must say where the next starts, and somewhere new.
    if (!well_formed ||
        (truncated && ((marker_unreadable && (page.empty() || common_prefixes)) ||
                       (next_key.empty() && next_upload_id.empty()) ||
                       (next_key == key_marker && next_upload_id == upload_id_marker)))) {
      throw failure(Operation::kListMultipart, bucket, prefix,
                    "returned a listing dlbench cannot read: " + FileText(response.body, 200));
    }
    uploads.insert(uploads.end(), std::make_move_iterator(page.begin()),
                   std::make_move_iterator(page.end()));
    if (!truncated) return uploads;
    key_marker = std::move(next_key);
    upload_id_marker = std::move(next_upload_id);
  }
}

Listing Client::list(const std::string& bucket, const std::string& prefix,
                     const std::string& delimiter, int page_keys, std::size_t most) {
  Listing listing;
  list_pages(
      bucket, prefix, delimiter,
      [&](const Listing& page) {
        listing.objects.insert(listing.objects.end(), page.objects.begin(), page.objects.end());
        listing.common_prefixes.insert(listing.common_prefixes.end(), page.common_prefixes.begin(),
                                       page.common_prefixes.end());
        return listing.objects.size() + listing.common_prefixes.size() < most;
      },
      page_keys);
  return listing;
}

void Client::list_pages(const std::string& bucket, const std::string& prefix,
                        const std::string& delimiter, const PageVisitor& visit, int page_keys) {
  Listing listing;
  std::string token;
  do {
    listing.objects.clear();
    listing.common_prefixes.clear();
    Request request(Operation::kList, "GET", bucket);
    request.subject = prefix;
    // Keys come URL-encoded (as boto3 asks for them): a key holding a character that XML 1.0
    // cannot carry ("\x01", which S3 allows in keys) would otherwise make the whole page
    // unreadable, RGW writing it as "&#x01;", which expat rejects.
    request.query = {
        {"list-type", "2"}, {"max-keys", std::to_string(page_keys)}, {"encoding-type", "url"}};
    if (!prefix.empty()) request.query.emplace_back("prefix", prefix);
    if (!delimiter.empty()) request.query.emplace_back("delimiter", delimiter);
    if (!token.empty()) request.query.emplace_back("continuation-token", token);
    const HttpResponse response = send(request);
    token.clear();
    bool truncated = false;
    bool url_encoded = false;  // the answer says it encoded (a server may ignore the parameter)
    ObjectInfo object;
    const bool well_formed =
        ParseXml(response.body, [&](std::string_view path, std::string_view text) {
          if (path == "ListBucketResult/EncodingType") url_encoded = text == "url";
          if (path == "ListBucketResult/Contents/Key") object.key = text;
          if (path == "ListBucketResult/Contents/Size") object.size = ParseSize(text);
          if (path == "ListBucketResult/Contents/LastModified") object.last_modified = text;
          if (path == "ListBucketResult/Contents") listing.objects.push_back(std::move(object));
          if (path == "ListBucketResult/CommonPrefixes/Prefix") {
            listing.common_prefixes.emplace_back(text);
          }
          if (path == "ListBucketResult/IsTruncated") truncated = text == "true";
          if (path == "ListBucketResult/NextContinuationToken") token = text;
        });
    if (!well_formed || (truncated && token.empty())) {
      throw failure(Operation::kList, bucket, prefix,
                    "returned a listing dlbench cannot read: " + FileText(response.body, 200));
    }
    if (url_encoded) {
      for (ObjectInfo& listed : listing.objects) listed.key = UrlDecodeListingValue(listed.key);
      for (std::string& folder : listing.common_prefixes) folder = UrlDecodeListingValue(folder);
    }
  } while (visit(listing) && !token.empty());
}

}  // namespace dlbench::s3
