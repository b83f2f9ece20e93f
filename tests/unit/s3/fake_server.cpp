#include "fake_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>
#include <stdexcept>

namespace dlbench::s3::test {
namespace {

bool SendAll(int fd, const std::string& text) {
  std::size_t sent = 0;
  while (sent < text.size()) {
    const ssize_t n = ::send(fd, text.data() + sent, text.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) return false;
    sent += static_cast<std::size_t>(n);
  }
  return true;
}

const char* Reason(int status) {
  switch (status) {
    case 200:
      return "OK";
    case 206:
      return "Partial Content";
    case 403:
      return "Forbidden";
    case 404:
      return "Not Found";
    case 500:
      return "Internal Server Error";
    case 503:
      return "Slow Down";
    default:
      return "Status";
  }
}

}  // namespace

FakeServer::FakeServer() {
  listener_ = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof address;
  if (listener_ < 0 || ::bind(listener_, reinterpret_cast<sockaddr*>(&address), length) != 0 ||
      ::listen(listener_, 16) != 0 ||
      ::getsockname(listener_, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
    throw std::runtime_error("FakeServer: cannot listen on 127.0.0.1");
  }
  port_ = ntohs(address.sin_port);
  thread_ = std::thread([this] { serve(); });
}

FakeServer::~FakeServer() {
  stop_ = true;
  thread_.join();
  ::close(listener_);
}

std::string FakeServer::endpoint() const { return "http://127.0.0.1:" + std::to_string(port_); }

void FakeServer::script(Reply reply) {
  const std::lock_guard lock(mutex_);
  replies_.push_back(std::move(reply));
}

std::vector<Received> FakeServer::received() const {
  const std::lock_guard lock(mutex_);
  return received_;
}

void FakeServer::serve() {
  while (!stop_) {
    pollfd poll_listener{listener_, POLLIN, 0};
    if (::poll(&poll_listener, 1, 20) <= 0) continue;
    const int connection = ::accept(listener_, nullptr, nullptr);
    if (connection < 0) continue;
    ++connections_;
    while (!stop_ && serve_one(connection)) {
    }
    ::close(connection);
  }
}

// Reads one request and answers it; false when the connection is over.
bool FakeServer::serve_one(int connection) {
  std::string data;
  char buffer[65536];
  std::size_t header_end = std::string::npos;
  while ((header_end = data.find("\r\n\r\n")) == std::string::npos) {
    pollfd poll_connection{connection, POLLIN, 0};
    if (stop_) return false;
    if (::poll(&poll_connection, 1, 20) <= 0) continue;
    const ssize_t n = ::recv(connection, buffer, sizeof buffer, 0);
    if (n <= 0) return false;
    data.append(buffer, static_cast<std::size_t>(n));
  }
  Received request;
  request.headers = data.substr(0, header_end);
  const std::size_t space = request.headers.find(' ');
  request.method = request.headers.substr(0, space);
  request.target =
      request.headers.substr(space + 1, request.headers.find(' ', space + 1) - space - 1);
  std::size_t content_length = 0;
  const std::size_t at = request.headers.find("Content-Length: ");
  if (at != std::string::npos)
    content_length = std::strtoul(request.headers.c_str() + at + 16, nullptr, 10);
  request.body = data.substr(header_end + 4);
  while (request.body.size() < content_length) {
    const ssize_t n = ::recv(connection, buffer, sizeof buffer, 0);
    if (n <= 0) return false;
    request.body.append(buffer, static_cast<std::size_t>(n));
  }
  Reply reply;
  {
    const std::lock_guard lock(mutex_);
    received_.push_back(request);
    if (!replies_.empty()) {
      reply = std::move(replies_.front());
      replies_.pop_front();
    }
  }
  if (reply.hang_up) return false;
  const std::size_t announced = reply.body.size() + (reply.truncate ? 100 : 0);
  std::string answer = "HTTP/1.1 " + std::to_string(reply.status) + " " + Reason(reply.status) +
                       "\r\nContent-Length: " + std::to_string(announced) + "\r\n" + reply.headers +
                       "\r\n";
  if (request.method != "HEAD") answer += reply.body;
  return SendAll(connection, answer) && !reply.truncate;
}

ClientOptions ClientOptionsFor(const std::string& endpoint, int attempts) {
  ClientOptions options;
  options.endpoint_url = endpoint;
  options.max_attempts = attempts;
  options.credentials = {"AKTEST", kSecret, ""};
  return options;
}

std::string ErrorXml(const std::string& code, const std::string& message) {
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>" + code + "</Code><Message>" +
         message + "</Message><BucketName>b</BucketName></Error>";
}

}  // namespace dlbench::s3::test
