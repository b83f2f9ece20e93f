#include "s3/http.h"

#include <curl/curl.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <mutex>
#include <string_view>

#include "util/error.h"

namespace dlbench::s3 {
namespace {

void GlobalInit() {
  static std::once_flag once;
  std::call_once(once, [] {
    if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
      throw InternalError("s3: libcurl's global initialisation failed");
    }
  });
}

// The calling thread's easy handle, reset (connections kept) before each exchange.
class ThreadHandle {
 public:
  ThreadHandle() {
    GlobalInit();
    handle_ = curl_easy_init();
    if (handle_ == nullptr) throw InternalError("s3: curl_easy_init failed");
  }
  ~ThreadHandle() { curl_easy_cleanup(handle_); }
  ThreadHandle(const ThreadHandle&) = delete;
  ThreadHandle& operator=(const ThreadHandle&) = delete;
  CURL* get() const { return handle_; }

 private:
  CURL* handle_;
};

CURL* CallingThreadHandle() {
  thread_local ThreadHandle handle;
  curl_easy_reset(handle.get());
  return handle.get();
}

struct Exchange {
  const HttpRequest* request = nullptr;
  HttpResponse* response = nullptr;
  CURL* handle = nullptr;
  std::size_t sent = 0;
  bool overflow = false;
};

bool Successful(CURL* handle) {
  long status = 0;
  curl_easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &status);
  return status >= 200 && status < 300;
}

std::size_t OnBody(char* data, std::size_t size, std::size_t count, void* user) {
  auto& exchange = *static_cast<Exchange*>(user);
  const std::size_t length = size * count;
  HttpResponse& response = *exchange.response;
  if (!exchange.request->into.empty() && Successful(exchange.handle)) {
    const std::span<std::byte> into = exchange.request->into;
    if (response.received + length > into.size()) {
      exchange.overflow = true;
      return 0;  // aborts the transfer: CURLE_WRITE_ERROR
    }
    std::memcpy(into.data() + response.received, data, length);
    response.received += length;
    return length;
  }
  response.body.append(data, length);
  return length;
}

std::size_t OnHeader(char* data, std::size_t size, std::size_t count, void* user) {
  auto& response = *static_cast<Exchange*>(user)->response;
  const std::size_t length = size * count;
  std::string_view line(data, length);
  if (line.starts_with("HTTP/")) {  // a new response (after a 100 Continue): forget the last
    response.content_range.clear();
    response.etag.clear();
    response.last_modified.clear();
    response.content_length = -1;
    response.error_code.clear();
    response.error_message.clear();
    response.bucket_region.clear();
    return length;
  }
  const std::size_t colon = line.find(':');
  if (colon == std::string_view::npos) return length;
  std::string name(line.substr(0, colon));
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::string_view value = line.substr(colon + 1);
  while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
  while (!value.empty() && (value.back() == '\r' || value.back() == '\n' || value.back() == ' ')) {
    value.remove_suffix(1);
  }
  if (name == "content-range") response.content_range = value;
  if (name == "etag") response.etag = value;
  if (name == "last-modified") response.last_modified = value;
  if (name == "x-amz-error-code") response.error_code = value;
  if (name == "x-amz-error-message") response.error_message = value;
  if (name == "x-amz-bucket-region") response.bucket_region = value;
  if (name == "content-length") {
    response.content_length = 0;
    for (const char c : value) {
      if (c < '0' || c > '9') break;
      response.content_length = response.content_length * 10 + (c - '0');
    }
  }
  return length;
}

std::size_t OnRead(char* buffer, std::size_t size, std::size_t count, void* user) {
  auto& exchange = *static_cast<Exchange*>(user);
  const std::span<const std::byte> body = exchange.request->body;
  const std::size_t length = std::min(size * count, body.size() - exchange.sent);
  std::memcpy(buffer, body.data() + exchange.sent, length);
  exchange.sent += length;
  return length;
}

// Rewinds the upload for a resend inside one exchange (a redirect, an authentication retry).
int OnSeek(void* user, curl_off_t offset, int origin) {
  auto& exchange = *static_cast<Exchange*>(user);
  if (origin != SEEK_SET || offset < 0 ||
      static_cast<std::size_t>(offset) > exchange.request->body.size()) {
    return CURL_SEEKFUNC_CANTSEEK;
  }
  exchange.sent = static_cast<std::size_t>(offset);
  return CURL_SEEKFUNC_OK;
}

bool Retryable(CURLcode code) {
  switch (code) {
    case CURLE_COULDNT_CONNECT:
    case CURLE_SEND_ERROR:
    case CURLE_RECV_ERROR:
    case CURLE_GOT_NOTHING:
    case CURLE_PARTIAL_FILE:
    case CURLE_OPERATION_TIMEDOUT:
    case CURLE_SSL_CONNECT_ERROR:
      return true;
    default:
      return false;
  }
}

}  // namespace

HttpResponse Perform(const HttpRequest& request) {
  HttpResponse response;
  CURL* handle = CallingThreadHandle();
  Exchange exchange{&request, &response, handle};

  curl_slist* headers = nullptr;
  for (const auto& [name, value] : request.headers) {
    headers = curl_slist_append(headers, (name + ": " + value).c_str());
  }
  headers = curl_slist_append(headers, "Expect:");  // no 100-continue round trip before a body
  headers = curl_slist_append(headers, "Accept:");

  curl_easy_setopt(handle, CURLOPT_URL, request.url.c_str());
  // The path goes out as signed: libcurl would otherwise remove "." and ".." segments from it
  // ("a/./b" is a key of its own on S3), and the server would check the signature of another path.
  curl_easy_setopt(handle, CURLOPT_PATH_AS_IS, 1L);
  curl_easy_setopt(handle, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(handle, CURLOPT_TCP_NODELAY, 1L);
  curl_easy_setopt(handle, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(handle, CURLOPT_CONNECTTIMEOUT_MS,
                   static_cast<long>(request.connect_timeout * 1000));
  curl_easy_setopt(handle, CURLOPT_LOW_SPEED_LIMIT, 1L);
  curl_easy_setopt(handle, CURLOPT_LOW_SPEED_TIME, static_cast<long>(request.stall_timeout));
  if (!request.ca_bundle.empty())
    curl_easy_setopt(handle, CURLOPT_CAINFO, request.ca_bundle.c_str());
  curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, OnBody);
  curl_easy_setopt(handle, CURLOPT_WRITEDATA, &exchange);
  curl_easy_setopt(handle, CURLOPT_HEADERFUNCTION, OnHeader);
  curl_easy_setopt(handle, CURLOPT_HEADERDATA, &exchange);
  if (request.method == "HEAD") {
    curl_easy_setopt(handle, CURLOPT_NOBODY, 1L);
  } else if (request.method == "PUT" || request.method == "POST") {
    curl_easy_setopt(handle, CURLOPT_UPLOAD, 1L);
    curl_easy_setopt(handle, CURLOPT_CUSTOMREQUEST, request.method.c_str());
    curl_easy_setopt(handle, CURLOPT_READFUNCTION, OnRead);
    curl_easy_setopt(handle, CURLOPT_READDATA, &exchange);
    curl_easy_setopt(handle, CURLOPT_SEEKFUNCTION, OnSeek);
    curl_easy_setopt(handle, CURLOPT_SEEKDATA, &exchange);
    curl_easy_setopt(handle, CURLOPT_INFILESIZE_LARGE,
                     static_cast<curl_off_t>(request.body.size()));
  } else if (request.method != "GET") {
    curl_easy_setopt(handle, CURLOPT_CUSTOMREQUEST, request.method.c_str());
  }

  const CURLcode code = curl_easy_perform(handle);
  curl_slist_free_all(headers);
  curl_off_t first_byte_us = 0;
  curl_easy_getinfo(handle, CURLINFO_STARTTRANSFER_TIME_T, &first_byte_us);
  response.first_byte_seconds = static_cast<double>(first_byte_us) / 1e6;
  if (exchange.overflow) {
    response.overflow = true;
    response.transport_error =
        "the server sent more bytes than the " + std::to_string(request.into.size()) + " asked for";
    return response;
  }
  if (code != CURLE_OK) {
    response.transport_error = curl_easy_strerror(code);
    response.transport_retryable = Retryable(code);
    return response;
  }
  curl_easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &response.status);
  return response;
}

}  // namespace dlbench::s3
