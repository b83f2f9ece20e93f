// One request as Client::send takes it, for the client's own sources (client.cpp, and the
// listings in client_listings.cpp), which build them; nothing else includes this.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "s3/client.h"
#include "s3/sigv4.h"

namespace dlbench::s3 {

struct Client::Request {
  Request(Operation operation_in, std::string method_in, std::string bucket_in,
          std::string key_in = "")
      : operation(operation_in),
        method(std::move(method_in)),
        bucket(std::move(bucket_in)),
        key(std::move(key_in)) {}

  Operation operation = Operation::kGet;
  std::string method;
  std::string bucket;
  std::string key;
  std::vector<QueryParameter> query;
  std::vector<Header> headers;  // signed with the rest
  std::span<const std::byte> body;
  std::span<std::byte> into;
  // What the op-log, the trace and errors name after the bucket when the request has no key of
  // its own (a listing: its prefix); empty: the key.
  std::string subject;
  long also_ok = 0;  // a status that is an answer, not an error (404 for HEAD, 416 for a range)
  bool overflow_ok = false;  // a body longer than `into` is an answer (cut there), not an error
  // A 2xx answer whose body is an S3 <Error> is that error, retried when its code is
  // (CompleteMultipartUpload: S3 answers 200 at once, sends whitespace while it works, then the
  // result or an error; DeleteObjects).
  bool error_in_ok = false;
  // The root element a 2xx answer's body must have (empty: any body); another is an unreadable
  // answer, not retried.
  std::string ok_root;
  // A check that must answer within seconds: at most these attempts, connect and stall times
  // (0: ClientOptions' and HttpRequest's).
  int attempts = 0;
  double connect_timeout = 0;
  double stall_timeout = 0;
};

}  // namespace dlbench::s3
