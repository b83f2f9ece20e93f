// The XML of S3 responses (error bodies, listings, multipart uploads, batch deletes), read with
// expat. S3 documents are small and flat, so the reader hands each element's text to a callback
// with the element's path ("ListBucketResult/Contents/Key") and the caller picks what it needs.
#pragma once

#include <functional>
#include <string>
#include <string_view>

namespace dlbench::s3 {

// Calls `on_element(path, text)` at the end of every element, in document order; `path` joins
// the element names from the root with '/', `text` is the element's own character data. Returns
// false when `xml` is not well-formed (the elements before the fault have been seen). Whitespace
// before the document is skipped (S3 sends some while it completes a multipart upload).
bool ParseXml(std::string_view xml,
              const std::function<void(std::string_view path, std::string_view text)>& on_element);

// `xml` with each character reference to a character XML 1.0 forbids made U+FFFD: RGW writes a
// key holding "\x01" as "&#x01;" in the answers that name it (CreateMultipartUpload's,
// CompleteMultipartUpload's, errors'), and expat refuses the whole document. Only for answers
// whose keys dlbench does not read; a listing asks for URL-encoded keys instead.
std::string ReplaceForbiddenCharacterReferences(std::string_view xml);

// The name of the document's root element ("Error", "CompleteMultipartUploadResult"); empty
// when `xml` is not a well-formed document (nothing, a truncated body, HTML that is no XML).
// Character references to characters XML 1.0 forbids are no fault here (as above).
std::string RootElement(std::string_view xml);

// The <Code> and <Message> of an S3 error body ("<Error><Code>NoSuchKey</Code>..."), and its
// <Region> (a PermanentRedirect's or AuthorizationHeaderMalformed's: the bucket's region); empty
// strings when the body is not one (a HEAD has no body, a proxy may answer with HTML).
// Character references to characters XML 1.0 forbids (in the <Key> of a NoSuchKey) are no fault
// here.
struct ErrorBody {
  std::string code;
  std::string message;
  std::string region;
};
ErrorBody ParseErrorBody(std::string_view xml);

// A value of a listing asked for with encoding-type=url (ListObjectsV2's Key, Prefix, Delimiter,
// StartAfter and CommonPrefixes/Prefix; ListMultipartUploads' Key, Prefix, Delimiter, KeyMarker
// and NextKeyMarker) decoded as botocore decodes it (urllib's unquote_plus): "%XX" is the byte
// 0xXX, '+' is a space (AWS encodes a space so; RGW as "%20", and a '+' as "%2B"), a '%' not
// followed by two hex digits stays as it is. Keys are bytes: the result is not checked as UTF-8.
std::string UrlDecodeListingValue(std::string_view encoded);

}  // namespace dlbench::s3
