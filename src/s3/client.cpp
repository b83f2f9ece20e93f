#include "s3/client.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <random>
#include <thread>
#include <utility>

#include "s3/answer_errors.h"
#include "s3/client_request.h"
#include "s3/xml.h"
#include "trace/event.h"
#include "trace/record.h"
#include "trace/recorder.h"
#include "util/error.h"
#include "util/xml_text.h"

namespace dlbench::s3 {

namespace {

constexpr std::size_t kDeleteBatch = 1000;

std::string ObjectText(const std::string& bucket, const std::string& key) {
  return "s3://" + bucket + "/" + key;
}

// Waits before attempt `attempt` + 1: 100 ms × 2^(attempt-1), at most 5 s, times [0.5, 1].
void Backoff(int attempt) {
  thread_local std::mt19937 random(std::random_device{}());
  const double base = std::min(0.1 * static_cast<double>(1U << std::min(attempt - 1, 16)), 5.0);
  const double wait = base * std::uniform_real_distribution<double>(0.5, 1.0)(random);
  std::this_thread::sleep_for(std::chrono::duration<double>(wait));
}

long long EpochSeconds() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// Content-Range "bytes 0-9/1234" → 1234.
std::optional<Bytes> RangeTotal(const std::string& content_range) {
  const std::size_t slash = content_range.rfind('/');
  if (slash == std::string::npos || slash + 1 >= content_range.size()) return std::nullopt;
  Bytes total = 0;
  for (std::size_t i = slash + 1; i < content_range.size(); ++i) {
    const char c = content_range[i];
    if (c < '0' || c > '9') return std::nullopt;
    total = total * 10 + static_cast<Bytes>(c - '0');
  }
  return total;
}

// Each operation's trace event (trace/event.h: its name, in messages and summary.json too) and
// its name in warp's op-log (s3/op_log.h), in the order of Operation.
struct OperationNames {
  trace::Event event;
  const char* op_log;
};
constexpr std::array<OperationNames, kOperationCount> kOperationNames = {{
    {trace::Event::kS3Get, "GET"},
    {trace::Event::kS3RangeGet, "GET"},
    {trace::Event::kS3Head, "STAT"},
    {trace::Event::kS3Put, "PUT"},
    {trace::Event::kS3CreateMultipart, "PUT"},
    {trace::Event::kS3UploadPart, "PUT"},
    {trace::Event::kS3CompleteMultipart, "PUT"},
    {trace::Event::kS3AbortMultipart, "DELETE"},
    {trace::Event::kS3List, "LIST"},
    {trace::Event::kS3Delete, "DELETE"},
    {trace::Event::kS3ListMultipart, "LIST"},
}};
static_assert(static_cast<std::size_t>(Operation::kListMultipart) + 1 == kOperationCount,
              "kOperationNames names every Operation, in order");

const char* OpLogName(Operation operation) {
  return kOperationNames[static_cast<std::size_t>(operation)].op_log;
}

std::int64_t SteadyNs(std::chrono::steady_clock::time_point at) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(at.time_since_epoch()).count();
}

// The request's trace event, when a recorder is active and traces the object (its filter and
// sampling, as for a file's I/O): `ret` bytes (-1: failed), the first byte `first_byte` seconds
// after `start`.
void TraceRequest(Operation operation, const std::string& bucket, const std::string& key,
                  std::chrono::steady_clock::time_point start,
                  std::chrono::steady_clock::time_point end, double first_byte, int attempts,
                  std::int64_t ret) {
  const trace::Recorder* recorder = trace::Active();
  if (recorder == nullptr) return;
  const std::string path = ObjectText(bucket, key);
  const std::uint64_t hash = trace::HashPath(path);
  if (!recorder->traces_path(path) || !recorder->sampled(hash)) return;
  trace::Record(kOperationNames[static_cast<std::size_t>(operation)].event, SteadyNs(start),
                SteadyNs(end), {ret, static_cast<std::int64_t>(first_byte * 1e6), attempts}, hash,
                path);
}

}  // namespace

const char* OperationName(Operation operation) {
  return trace::Info(kOperationNames[static_cast<std::size_t>(operation)].event).name;
}

ObjectName ParseObjectUri(const std::string& uri) {
  constexpr std::string_view kScheme = "s3://";
  if (!uri.starts_with(kScheme)) {
    throw UsageError("'" + uri + "' is not an S3 URI (s3://bucket/key)");
  }
  const std::string rest = uri.substr(kScheme.size());
  const std::size_t slash = rest.find('/');
  ObjectName name{rest.substr(0, slash), slash == std::string::npos ? "" : rest.substr(slash + 1)};
  if (name.bucket.empty()) throw UsageError("'" + uri + "' names no bucket (s3://bucket/key)");
  return name;
}

Client::Client(ClientOptions options) : options_(std::move(options)) {
  std::string url = options_.endpoint_url;
  const std::size_t scheme_end = url.find("://");
  if (scheme_end == std::string::npos) {
    throw UsageError("S3 endpoint '" + url + "' has no scheme (http://host:port or https://host)");
  }
  scheme_ = url.substr(0, scheme_end);
  if (scheme_ != "http" && scheme_ != "https") {
    throw UsageError("S3 endpoint '" + url + "': the scheme must be http or https");
  }
  authority_ = url.substr(scheme_end + 3);
  while (!authority_.empty() && authority_.back() == '/') authority_.pop_back();
  if (authority_.empty() || authority_.find('/') != std::string::npos) {
    throw UsageError("S3 endpoint '" + url + "' must be scheme://host[:port], without a path");
  }
  if (options_.max_attempts < 1) {
    throw UsageError("s3_max_attempts must be at least 1, not " +
                     std::to_string(options_.max_attempts));
  }
  // The host without its port ("[::1]:80", "10.0.0.1:9000", "localhost"): an address or
  // localhost has no subdomains to name buckets.
  const std::string host = authority_.front() == '['
                               ? authority_.substr(0, authority_.find(']') + 1)
                               : authority_.substr(0, authority_.rfind(':'));
  const bool address = host.empty() || host.front() == '[' ||
                       host.find_first_not_of("0123456789.") == std::string::npos;
  virtual_hosts_ = !options_.path_style && !address && host != "localhost";
}

bool Client::virtual_hosted(const std::string& bucket) const {
  if (!virtual_hosts_ || bucket.empty()) return false;
  if (bucket.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-.") != std::string::npos) {
    return false;
  }
  if (bucket.front() == '-' || bucket.back() == '-' || bucket.find("..") != std::string::npos) {
    return false;
  }
  return scheme_ != "https" || bucket.find('.') == std::string::npos;
}

OperationCounts Client::counts(Operation operation) const {
  const AtomicCounts& counts = counts_[static_cast<std::size_t>(operation)];
  return {counts.requests.load(), counts.retries.load(), counts.failures.load(),
          counts.bytes.load()};
}

std::vector<storage::RequestCounts> Client::requests() const {
  std::vector<storage::RequestCounts> all;
  for (std::size_t i = 0; i < kOperationCount; ++i) {
    const AtomicCounts& counts = counts_[i];
    storage::RequestCounts out;
    out.operation = OperationName(static_cast<Operation>(i));
    out.requests = counts.requests.load();
    out.retries = counts.retries.load();
    out.failures = counts.failures.load();
    out.bytes = counts.bytes.load();
    const std::lock_guard lock(counts.times_mutex);
    out.seconds = counts.seconds;
    out.first_byte_seconds = counts.first_byte_seconds;
    out.latency_buckets = counts.latency.counts();
    out.latency_max = counts.latency.max();
    out.first_byte_buckets = counts.first_byte.counts();
    out.first_byte_max = counts.first_byte.max();
    all.push_back(std::move(out));
  }
  return all;
}

HttpResponse Client::send(const Request& request) {
  AtomicCounts& counts = counts_[static_cast<std::size_t>(request.operation)];
  ++counts.requests;
  using Clock = std::chrono::steady_clock;
  const Clock::time_point start = Clock::now();
  const std::chrono::system_clock::time_point wall_start = std::chrono::system_clock::now();
  Clock::time_point attempt_start = start;
  std::string host = authority_;
  std::string path = "/";
  if (virtual_hosted(request.bucket)) {
    host = request.bucket + "." + authority_;
  } else {
    path += request.bucket + "/";
  }
  path += UriEncodePath(request.key);
  const std::string query = CanonicalQuery(request.query);
  HttpRequest http;
  http.method = request.method;
  http.url = scheme_ + "://" + host + path + (query.empty() ? "" : "?" + query);
  http.body = request.body;
  http.into = request.into;
  http.ca_bundle = options_.ca_bundle;
  http.connect_timeout =
      request.connect_timeout > 0 ? request.connect_timeout : options_.connect_timeout;
  if (request.stall_timeout > 0) http.stall_timeout = request.stall_timeout;
  const int attempts = request.attempts > 0 ? request.attempts : options_.max_attempts;
  const std::string payload_hash =
      request.body.empty() ? std::string(kEmptyPayloadHash) : std::string(kUnsignedPayload);

  HttpResponse response;
  bool error_in_ok = false;  // a 2xx answer whose body is an S3 error (Request::error_in_ok)
  int attempt = 1;
  for (;; ++attempt) {
    SigningInput input;
    input.method = request.method;
    input.canonical_uri = path;
    input.query = request.query;
    input.amz_date = AmzDate(EpochSeconds());
    input.region = options_.region;
    input.payload_hash = payload_hash;
    input.headers = request.headers;
    input.headers.emplace_back("host", host);
    input.headers.emplace_back("x-amz-date", input.amz_date);
    input.headers.emplace_back("x-amz-content-sha256", payload_hash);
    if (!options_.credentials.session_token.empty()) {
      input.headers.emplace_back("x-amz-security-token", options_.credentials.session_token);
    }
    http.headers = input.headers;
    http.headers.emplace_back("Authorization", Authorization(input, options_.credentials));
    attempt_start = Clock::now();
    response = Perform(http);
    const bool success = response.status >= 200 && response.status < 300;
    error_in_ok = success && request.error_in_ok && RootElement(response.body) == "Error";
    bool retryable = false;
    if (response.status == 0) {
      retryable = response.transport_retryable;
    } else if (error_in_ok || (!success && response.status != request.also_ok)) {
      retryable = RetryableAnswer(response);
    }
    if (!retryable || attempt >= attempts) break;
    ++counts.retries;
    Backoff(attempt);
  }
  const Clock::time_point end = Clock::now();
  const double seconds = std::chrono::duration<double>(end - start).count();
  // No answer: its first byte never came; the request's time stands for it.
  const double first_byte =
      response.status == 0
          ? seconds
          : std::min(seconds, std::chrono::duration<double>(attempt_start - start).count() +
                                  response.first_byte_seconds);
  {
    const std::lock_guard lock(counts.times_mutex);
    counts.seconds += seconds;
    counts.first_byte_seconds += first_byte;
    counts.latency.record(seconds);
    counts.first_byte.record(first_byte);
  }
  const bool success = response.status >= 200 && response.status < 300;
  // A success whose body is not the answer the request expects: nothing to retry (the server
  // did what it answers), nothing to read.
  const bool unreadable = success && !error_in_ok && !request.ok_root.empty() &&
                          RootElement(response.body) != request.ok_root;
  const bool ok = (success && !error_in_ok && !unreadable) ||
                  (request.also_ok != 0 && response.status == request.also_ok) ||
                  (request.overflow_ok && response.overflow);
  const std::uint64_t bytes = request.body.size() + response.received + response.body.size();
  const std::string& subject = request.subject.empty() ? request.key : request.subject;
  const auto log = [&](std::string_view error) {
    if (op_log_ == nullptr) return;
    const auto at = [&](double offset) {
      return wall_start + std::chrono::duration_cast<std::chrono::system_clock::duration>(
                              std::chrono::duration<double>(offset));
    };
    op_log_->record({.op = OpLogName(request.operation),
                     .bytes = ok ? bytes : 0,
                     .bucket = request.bucket,
                     .key = subject,
                     .error = error,
                     .start = wall_start,
                     .first_byte = at(first_byte),
                     .end = at(seconds)});
  };
  TraceRequest(request.operation, request.bucket, subject, start, end, first_byte, attempt,
               ok ? static_cast<std::int64_t>(bytes) : -1);
  if (ok) {
    counts.bytes += bytes;
    log("");
    return response;
  }
  ++counts.failures;
  std::string what = "failed";
  std::string hint;
  if (response.status == 0) {
    what += ": " + response.transport_error;
  } else if (unreadable) {
    what += ": an unreadable answer (HTTP " + std::to_string(response.status) +
            "): " + FileText(response.body, 200);
  } else {
    const ErrorBody error = AnswerError(response);
    what += ": " + error.code + " (HTTP " + std::to_string(response.status) + ")";
    if (!error.message.empty()) what += ": " + FileText(error.message, 200);
    hint = RegionHint(response, error, options_.region, options_.endpoint_url);
  }
  what += " after " + std::to_string(attempt) + (attempt == 1 ? " attempt" : " attempts");
  if (!hint.empty()) what += ": " + hint;
  log(what);
  throw failure(request.operation, request.bucket, subject, what);
}

Error Client::failure(Operation operation, const std::string& bucket, const std::string& key,
                      const std::string& what) const {
  return Error(ExitCode::kIo, std::string("S3 ") + OperationName(operation) + " of " +
                                  ObjectText(bucket, key) + " at " + options_.endpoint_url + " " +
                                  what);
}

GetResult Client::get(const std::string& bucket, const std::string& key, Bytes offset,
                      std::span<std::byte> into) {
  if (into.empty()) return {0, head(bucket, key).value_or(ObjectInfo{}).size};
  Request request(Operation::kRangeGet, "GET", bucket, key);
  request.into = into;
  request.headers.emplace_back(
      "range", "bytes=" + std::to_string(offset) + "-" + std::to_string(offset + into.size() - 1));
  request.also_ok = 416;  // a range that starts at or past the end: nothing to read there
  const HttpResponse response = send(request);
  if (response.status == 416) {
    if (const std::optional<Bytes> total = RangeTotal(response.content_range)) return {0, *total};
    const std::optional<ObjectInfo> info = head(bucket, key);
    if (!info) throw failure(Operation::kRangeGet, bucket, key, "failed: the object is gone");
    return {0, info->size};
  }
  GetResult result;
  result.bytes = response.received;
  if (const std::optional<Bytes> total = RangeTotal(response.content_range)) {
    result.object_size = *total;
  } else {
    result.object_size = response.received;  // a 200 without Content-Range: the whole object
  }
  return result;
}

std::string Client::get_object(const std::string& bucket, const std::string& key) {
  Request request(Operation::kGet, "GET", bucket, key);
  return send(request).body;
}

std::optional<GetResult> Client::get_whole(const std::string& bucket, const std::string& key,
                                           std::span<std::byte> into) {
  Request request(Operation::kGet, "GET", bucket, key);
  request.into = into;
  request.overflow_ok = true;
  const HttpResponse response = send(request);
  if (response.overflow) return std::nullopt;
  return GetResult{response.received, response.received};
}

std::optional<ObjectInfo> Client::head(const std::string& bucket, const std::string& key) {
  Request request(Operation::kHead, "HEAD", bucket, key);
  request.also_ok = 404;
  const HttpResponse response = send(request);
  if (response.status == 404) return std::nullopt;
  return ObjectInfo{key, static_cast<Bytes>(std::max(response.content_length, 0LL)),
                    response.last_modified};
}

void Client::put(const std::string& bucket, const std::string& key,
                 std::span<const std::byte> bytes) {
  Request request(Operation::kPut, "PUT", bucket, key);
  request.body = bytes;
  send(request);
}

std::string Client::create_multipart(const std::string& bucket, const std::string& key) {
  Request request(Operation::kCreateMultipart, "POST", bucket, key);
  request.query = {{"uploads", ""}};
  const HttpResponse response = send(request);
  std::string upload_id;
  // The answer names the key, which XML may not carry (the upload id it can).
  ParseXml(ReplaceForbiddenCharacterReferences(response.body),
           [&](std::string_view path, std::string_view text) {
             if (path == "InitiateMultipartUploadResult/UploadId") upload_id = text;
           });
  if (upload_id.empty()) {
    throw failure(Operation::kCreateMultipart, bucket, key,
                  "returned no UploadId: " + FileText(response.body, 200));
  }
  return upload_id;
}

std::string Client::upload_part(const std::string& bucket, const std::string& key,
                                const std::string& upload_id, int part_number,
                                std::span<const std::byte> bytes) {
  Request request(Operation::kUploadPart, "PUT", bucket, key);
  request.query = {{"partNumber", std::to_string(part_number)}, {"uploadId", upload_id}};
  request.body = bytes;
  const HttpResponse response = send(request);
  if (response.etag.empty()) {
    throw failure(Operation::kUploadPart, bucket, key,
                  "returned no ETag for part " + std::to_string(part_number));
  }
  return response.etag;
}

void Client::complete_multipart(const std::string& bucket, const std::string& key,
                                const std::string& upload_id,
                                const std::vector<std::string>& etags) {
  std::string body = "<CompleteMultipartUpload>";
  for (std::size_t i = 0; i < etags.size(); ++i) {
    body += "<Part><PartNumber>" + std::to_string(i + 1) + "</PartNumber><ETag>" +
            XmlEscape(etags[i]) + "</ETag></Part>";
  }
  body += "</CompleteMultipartUpload>";
  Request request(Operation::kCompleteMultipart, "POST", bucket, key);
  request.query = {{"uploadId", upload_id}};
  request.body = std::as_bytes(std::span(body));
  // S3 answers 200 once it starts to complete the upload, and the body says how it ended.
  request.error_in_ok = true;
  request.ok_root = "CompleteMultipartUploadResult";
  send(request);
}

void Client::abort_multipart(const std::string& bucket, const std::string& key,
                             const std::string& upload_id) {
  Request request(Operation::kAbortMultipart, "DELETE", bucket, key);
  request.query = {{"uploadId", upload_id}};
  send(request);
}

void Client::check_bucket(const std::string& bucket, const std::string& prefix) {
  // One key of the prefix the run uses (credentials may allow listing it only), and an answer
  // within seconds: an endpoint that accepts connections and never answers fails here in about
  // 20 s, not after the run's stall time of every attempt.
  Request request(Operation::kList, "GET", bucket);
  request.subject = prefix;
  request.query = {{"list-type", "2"}, {"max-keys", "1"}};
  if (!prefix.empty()) request.query.emplace_back("prefix", prefix);
  request.attempts = 2;
  request.connect_timeout = 5;
  request.stall_timeout = 10;
  try {
    send(request);
  } catch (const Error& e) {
    if (e.code() != ExitCode::kIo) throw;
    throw UsageError(std::string(e.what()) +
                     " (checked before any work: endpoint, credentials "
                     "and bucket)");
  }
}

void Client::delete_objects(const std::string& bucket, const std::vector<std::string>& keys) {
  // XML 1.0 cannot carry a control character but tab and newline (not even as "&#x01;"), and
  // reads a carriage return as a newline: a key holding one is deleted by a DELETE of its own.
  std::vector<std::string> batched;
  batched.reserve(keys.size());
  for (const std::string& key : keys) {
    const bool xml_safe = std::ranges::none_of(
        key, [](char c) { return static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n'; });
    if (xml_safe) {
      batched.push_back(key);
    } else {
      delete_object(bucket, key);
    }
  }
  for (std::size_t first = 0; first < batched.size(); first += kDeleteBatch) {
    const std::size_t last = std::min(batched.size(), first + kDeleteBatch);
    std::string body = "<Delete><Quiet>true</Quiet>";
    for (std::size_t i = first; i < last; ++i) {
      body += "<Object><Key>" + XmlEscape(batched[i]) + "</Key></Object>";
    }
    body += "</Delete>";
    Request request(Operation::kDelete, "POST", bucket);
    request.query = {{"delete", ""}};
    request.headers = {{"content-md5", Md5Base64(body)}};
    request.body = std::as_bytes(std::span(body));
    request.error_in_ok = true;  // the request's error, not a key's (DeleteResult/Error)
    const HttpResponse response = send(request);
    std::string failed_key;
    std::string failed_code;
    ParseXml(response.body, [&](std::string_view path, std::string_view text) {
      if (path == "DeleteResult/Error/Key" && failed_key.empty()) failed_key = text;
      if (path == "DeleteResult/Error/Code" && failed_code.empty()) failed_code = text;
    });
    if (!failed_key.empty() || !failed_code.empty()) {
      throw failure(Operation::kDelete, bucket, failed_key, "refused: " + failed_code);
    }
  }
}

void Client::delete_object(const std::string& bucket, const std::string& key) {
  Request request(Operation::kDelete, "DELETE", bucket, key);
  request.also_ok = 404;
  send(request);
}

}  // namespace dlbench::s3
