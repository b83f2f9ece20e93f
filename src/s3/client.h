// A thin S3 client: the requests dlbench needs (GET whole or a range, HEAD, PUT, multipart
// upload, ListObjectsV2, DeleteObjects, ListMultipartUploads), each signed with SigV4 (s3/sigv4.h)
// and sent on the calling thread's keep-alive connection (s3/http.h).
//
// Retries, as botocore decides them: a refused or broken connection, a timeout, and an answer
// whose status or error code is retryable (s3/answer_errors.h: 429, 5xx, SlowDown, throttling,
// timeouts) are retried up to `max_attempts` attempts in all, after an exponential backoff with
// jitter (100 ms, 200 ms, ... at most 5 s, each scaled by a random factor in [0.5, 1]); each
// retry is counted. A CompleteMultipartUpload or DeleteObjects answered 200 whose body is an
// S3 <Error> (S3 answers a completion 200 at once and says in the body how it ended) is that
// error: retried when its code is, else the end of the request, naming the code. A completion
// answered 200 with any other body than its result is an unreadable answer, not retried.
// Any other answer ends the request: the error names the operation, the object
// (s3://bucket/key), the endpoint, the HTTP status and the server's error code and message
// (SignatureDoesNotMatch, NoSuchBucket, InvalidAccessKeyId...; an answer without an error body,
// a HEAD's, by a header or its status: answer_errors.h), never a credential. When the answer
// says the bucket is in another region than ClientOptions::region, the error names that region
// and the setting to change; redirects are never followed. Errors are dlbench::Error with
// ExitCode::kIo.
//
// Counts: per operation, requests, retries, failures and bytes, and each request's time (first
// attempt's start to last byte) and time to first byte, in histograms (requests()).
//
// Thread safety: every method may be called from any number of threads at once.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "metrics/percentiles.h"
#include "s3/http.h"
#include "s3/op_log.h"
#include "s3/sigv4.h"
#include "storage/file.h"
#include "util/error.h"
#include "util/units.h"

namespace dlbench::s3 {

struct ClientOptions {
  std::string endpoint_url;  // "http://127.0.0.1:7480", "https://s3.us-east-1.amazonaws.com"
  std::string region = "us-east-1";
  // Path-style "endpoint/bucket/key" when true, virtual-hosted "bucket.endpoint/key" when false,
  // except where no virtual host can name the bucket, as the AWS SDKs decide: an endpoint that is
  // an IP address or localhost, a bucket name that is not a DNS label sequence, a bucket name
  // with a dot over HTTPS (the certificate's wildcard covers one label).
  bool path_style = true;
  int max_attempts = 5;   // attempts of one request in all (1: no retry)
  std::string ca_bundle;  // AWS_CA_BUNDLE
  double connect_timeout = 10;
  Credentials credentials;
};

// The requests a client counts, one counter set each.
enum class Operation : std::uint8_t {
  kGet,
  kRangeGet,
  kHead,
  kPut,
  kCreateMultipart,
  kUploadPart,
  kCompleteMultipart,
  kAbortMultipart,
  kList,
  kDelete,
  kListMultipart,
};
inline constexpr std::size_t kOperationCount = 11;
const char* OperationName(Operation operation);

struct OperationCounts {
  std::uint64_t requests = 0;  // requests that ended (successfully or not), not attempts
  std::uint64_t retries = 0;   // attempts after the first
  std::uint64_t failures = 0;  // requests that ended with an error
  std::uint64_t bytes = 0;     // payload bytes sent or received
};

struct ObjectInfo {
  std::string key;
  Bytes size = 0;
  std::string last_modified;  // as the server wrote it (ISO 8601 in listings, RFC 1123 in HEAD)
};

struct Listing {
  std::vector<ObjectInfo> objects;           // sorted by key, as S3 lists them
  std::vector<std::string> common_prefixes;  // with a delimiter: the "folders", each ending in it
};

// A multipart upload started and neither completed nor aborted: its parts are stored (and
// billed) until it is aborted.
struct PendingUpload {
  std::string key;
  std::string upload_id;
};

struct GetResult {
  Bytes bytes = 0;        // bytes written to the buffer
  Bytes object_size = 0;  // the whole object's size (Content-Range's total, else Content-Length)
};

class Client {
 public:
  explicit Client(ClientOptions options);

  const ClientOptions& options() const { return options_; }

  // Reads object bytes [offset, offset + into.size()) into `into` (a range GET; fewer bytes at
  // the object's end, none at or past it). Error(kIo) when absent.
  GetResult get(const std::string& bucket, const std::string& key, Bytes offset,
                std::span<std::byte> into);
  // The whole object (a GET without a range).
  std::string get_object(const std::string& bucket, const std::string& key);
  // The whole object, by a GET without a range, into `into`; nullopt when the object is larger
  // than `into` (the transfer is cut there, which closes the connection). For objects expected
  // to fit: RGW serves a plain GET of a small object with less work than a range GET (630
  // against 490 objects/s of 4 KiB on one connection here).
  std::optional<GetResult> get_whole(const std::string& bucket, const std::string& key,
                                     std::span<std::byte> into);
  // The object's size and modification time; nullopt when it does not exist (404).
  std::optional<ObjectInfo> head(const std::string& bucket, const std::string& key);
  void put(const std::string& bucket, const std::string& key, std::span<const std::byte> bytes);

  // Multipart upload: parts are numbered from 1; all but the last at least 5 MiB.
  std::string create_multipart(const std::string& bucket, const std::string& key);
  std::string upload_part(const std::string& bucket, const std::string& key,
                          const std::string& upload_id, int part_number,
                          std::span<const std::byte> bytes);  // returns the part's ETag
  void complete_multipart(const std::string& bucket, const std::string& key,
                          const std::string& upload_id, const std::vector<std::string>& etags);
  void abort_multipart(const std::string& bucket, const std::string& key,
                       const std::string& upload_id);
  // The multipart uploads started under `prefix` and neither completed nor aborted
  // (ListMultipartUploads, following NextKeyMarker and NextUploadIdMarker while the answer is
  // truncated), in the server's order: by key, then by the time each started. Keys are asked
  // for URL-encoded and given back decoded, also from an answer without EncodingType (RGW
  // encodes them without saying so; a server that ignored the parameter and sent a key holding
  // "%XX" or '+' would have it decoded). With a non-empty `delimiter`, uploads of keys holding
  // it after the prefix are not given (the server rolls them up into common prefixes).
  // Error(kIo) when the answer cannot be read.
  std::vector<PendingUpload> list_multipart_uploads(const std::string& bucket,
                                                    const std::string& prefix,
                                                    const std::string& delimiter = "");

  // Every object under `prefix` (ListObjectsV2, following continuation tokens, `page_keys` keys
  // a page), or the first pages holding at least `most` objects and prefixes together. With a
  // non-empty `delimiter`, keys holding it after the prefix are rolled up into common prefixes,
  // as a folder listing. Keys are asked for URL-encoded (encoding-type=url, as boto3 does: XML
  // 1.0 cannot carry every character a key may hold) and given back decoded, byte-exact.
  Listing list(const std::string& bucket, const std::string& prefix,
               const std::string& delimiter = "", int page_keys = 1000,
               std::size_t most = SIZE_MAX);
  // The same listing a page at a time: `visit` gets each response's objects and prefixes (in key
  // order) and returns whether to go on; only one page is held at a time.
  using PageVisitor = std::function<bool(const Listing& page)>;
  void list_pages(const std::string& bucket, const std::string& prefix,
                  const std::string& delimiter, const PageVisitor& visit, int page_keys = 1000);
  // Deletes `keys` with DeleteObjects, 1000 a request; absent keys are no error. Error(kIo)
  // naming the first key the server refused. A key holding a control character other than tab
  // and newline, which XML 1.0 cannot carry, is deleted by a DELETE of its own.
  void delete_objects(const std::string& bucket, const std::vector<std::string>& keys);
  void delete_object(const std::string& bucket, const std::string& key);

  // Checks before any work that the endpoint answers, the credentials are accepted and `bucket`
  // exists, by listing one key under `prefix` (the folder the run uses: credentials may be
  // allowed that prefix only), two attempts of at most 5 s to connect and 10 s without a byte:
  // any failure is Error(kUsage) (exit 2, a configuration to fix) with the request's message
  // (the server's code: SignatureDoesNotMatch, InvalidAccessKeyId, NoSuchBucket, AccessDenied,
  // or the connection's error).
  void check_bucket(const std::string& bucket, const std::string& prefix = "");

  OperationCounts counts(Operation operation) const;
  // Every request from now on gets a line in `log` (not owned; it outlives the client's
  // requests). Call before the client is shared between threads.
  void set_op_log(OpLog* log) { op_log_ = log; }
  // Every operation's counts, times and their histograms (storage/file.h RequestCounts), in
  // Operation's order, requests or not.
  std::vector<storage::RequestCounts> requests() const;

 private:
  struct Request;  // s3/client_request.h
  HttpResponse send(const Request& request);
  // Error(kIo): "S3 <operation> of s3://bucket/key at <endpoint> <what>".
  Error failure(Operation operation, const std::string& bucket, const std::string& key,
                const std::string& what) const;

  ClientOptions options_;
  OpLog* op_log_ = nullptr;
  std::string scheme_;          // "http" or "https"
  std::string authority_;       // host[:port] of the endpoint
  bool virtual_hosts_ = false;  // buckets may be named by virtual hosts (ClientOptions::path_style)
  bool virtual_hosted(const std::string& bucket) const;
  struct AtomicCounts {
    std::atomic<std::uint64_t> requests{0};
    std::atomic<std::uint64_t> retries{0};
    std::atomic<std::uint64_t> failures{0};
    std::atomic<std::uint64_t> bytes{0};
    // A request's time and time to first byte (storage::RequestCounts), after it ended.
    mutable std::mutex times_mutex;
    double seconds = 0;
    double first_byte_seconds = 0;
    metrics::LatencyHistogram latency;
    metrics::LatencyHistogram first_byte;
  };
  std::array<AtomicCounts, kOperationCount> counts_;
};

// "s3://bucket/key" split; Error(kUsage) naming the text when it is not one.
struct ObjectName {
  std::string bucket;
  std::string key;  // may be empty (the bucket itself) or end in '/' (a prefix)
};
ObjectName ParseObjectUri(const std::string& uri);

}  // namespace dlbench::s3
