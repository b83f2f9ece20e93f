// A scripted HTTP/1.1 server on 127.0.0.1 for the client's unit tests: it answers each request
// with the next scripted reply (or 200 with an empty body when the script is used up) and
// records what it received. A reply may instead close the connection without answering, or
// announce more body bytes than it sends (a truncated body). Keep-alive: one thread serves the
// connections one after the other. With it, what the client's tests script and sign with.
#pragma once

#include <atomic>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "s3/client.h"

namespace dlbench::s3::test {

struct Reply {
  int status = 200;
  std::string headers;  // extra header lines, each ending in "\r\n"
  std::string body;
  bool hang_up = false;   // close the connection instead of answering
  bool truncate = false;  // announce body.size() + 100 bytes, send body, close
};

struct Received {
  std::string method;
  std::string target;   // path and query
  std::string headers;  // the raw header block
  std::string body;
};

class FakeServer {
 public:
  FakeServer();
  ~FakeServer();
  FakeServer(const FakeServer&) = delete;
  FakeServer& operator=(const FakeServer&) = delete;

  std::string endpoint() const;  // "http://127.0.0.1:PORT"
  void script(Reply reply);
  std::vector<Received> received() const;
  int connections() const { return connections_.load(); }

 private:
  void serve();
  bool serve_one(int connection);

  int listener_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::atomic<int> connections_{0};
  mutable std::mutex mutex_;
  std::deque<Reply> replies_;
  std::vector<Received> received_;
  std::thread thread_;
};

// The secret of ClientOptionsFor's credentials, which no message, header or log may hold.
inline constexpr char kSecret[] = "s3cr3t-never-printed";

// A client of `endpoint` (path-style, `attempts` attempts in all), signing with kSecret.
ClientOptions ClientOptionsFor(const std::string& endpoint, int attempts = 3);

// The body of an S3 error answer: <Error> with `code` and `message`.
std::string ErrorXml(const std::string& code, const std::string& message);

}  // namespace dlbench::s3::test
