// One HTTP exchange over libcurl, on the calling thread's own easy handle: each thread keeps one
// handle for its life, so its connections stay open between requests (keep-alive) and a thread
// never waits for another's. TCP_NODELAY is on (a small request otherwise waits for the peer's
// delayed ACK: ~40 ms per request against a server that also delays). Retries and signing are the
// caller's (s3/client.h): this file sends what it is given, once.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "s3/sigv4.h"
#include "util/units.h"

namespace dlbench::s3 {

struct HttpRequest {
  std::string method;  // GET, HEAD, PUT, POST, DELETE
  std::string url;
  std::vector<Header> headers;
  std::span<const std::byte> body;  // sent with PUT and POST
  // A successful response's body goes here when not empty (a range GET into the caller's
  // buffer); more bytes than fit fail the exchange. Else it goes to HttpResponse::body.
  std::span<std::byte> into;
  std::string ca_bundle;        // a CA file for HTTPS (AWS_CA_BUNDLE); empty: the system's
  double connect_timeout = 10;  // seconds to connect
  double stall_timeout = 60;    // seconds without a byte before the exchange fails
};

struct HttpResponse {
  // 0 when the exchange failed before an answer (transport_error says why).
  long status = 0;
  std::string transport_error;       // libcurl's message; empty when the server answered
  bool transport_retryable = false;  // a refused or broken connection, a timeout
  std::string body;                  // error bodies and XML answers
  Bytes received = 0;                // body bytes written to HttpRequest::into
  // Response headers dlbench reads (empty when absent).
  std::string content_range;
  std::string etag;
  std::string last_modified;
  long long content_length = -1;
  // The error some servers put in headers, where an answer without a body (HEAD) can say it.
  std::string error_code;         // x-amz-error-code
  std::string error_message;      // x-amz-error-message
  std::string bucket_region;      // x-amz-bucket-region: the region the bucket is in
  double first_byte_seconds = 0;  // from the start to the first response byte
  // A successful answer's body was longer than HttpRequest::into: the transfer was cut there
  // (transport_error says so; `received` bytes are in `into`).
  bool overflow = false;
};

// Performs `request` on the calling thread's handle. Never throws for HTTP or transport
// failures (the response says); throws InternalError if libcurl cannot be set up.
HttpResponse Perform(const HttpRequest& request);

}  // namespace dlbench::s3
