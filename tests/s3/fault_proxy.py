"""An HTTP proxy in front of the test S3 server that fails requests on purpose, for the S3 fault
tests (tests/s3/faults_s3.py). It listens on 127.0.0.1 on a free port and forwards each request
as it came (the Host header too, so that the client's SigV4 signature stays valid) to the
upstream endpoint, except where a rule says otherwise:

- `status`: answer with an HTTP error (503 SlowDown, say) instead of forwarding;
- `truncate`: forward, then send the response's headers and only half its body, and close the
  connection (the client sees a body shorter than its Content-Length);
- `die`: stop the server: close the listening socket and every connection, as a killed server
  would; every later request is refused;
- `delay`: forward, then wait `seconds` before sending the response (a slow server's time to
  first byte);
- `slow_body`: forward, send the headers and the first half of the body at once, then wait
  `seconds` before the rest (a transfer that takes longer than the wait for its first byte).

A rule applies to the requests whose method is in `methods` (and whose path holds `key`, when
given), to every `every`-th of them (counted per rule), at most `times` times in all (None: no
limit). Requests are counted per method in `counts`.

    proxy = FaultProxy("http://127.0.0.1:7480"); proxy.start()
    proxy.rules = [Rule("status", {"PUT"}, every=2, status=503)]
    ... dlbench with AWS_ENDPOINT_URL=proxy.url ...
    proxy.stop()
"""
import http.client
import http.server
import socket
import threading
import time
import urllib.parse

HOP_BY_HOP = {"connection", "keep-alive", "proxy-connection", "te", "trailer", "upgrade",
              "transfer-encoding", "expect"}


class Rule:
    def __init__(self, action, methods, every=1, times=None, key=None, status=503, seconds=0.0):
        self.action, self.methods, self.every, self.times = action, set(methods), every, times
        self.key, self.status, self.seconds = key, status, seconds
        self.seen = 0     # requests this rule looked at
        self.applied = 0  # requests it failed

    def wants(self, method, path):
        if method not in self.methods or (self.key is not None and self.key not in path):
            return False
        self.seen += 1
        if self.seen % self.every != 0 or (self.times is not None and self.applied >= self.times):
            return False
        self.applied += 1
        return True


class FaultProxy:
    def __init__(self, upstream):
        parts = urllib.parse.urlsplit(upstream)
        self.upstream = (parts.hostname, parts.port or 80)
        self.rules = []
        self.counts = {}
        self.lock = threading.Lock()
        self.dead = threading.Event()
        proxy = self

        class Handler(http.server.BaseHTTPRequestHandler):
            # Headers and body go out as two writes: with Nagle's algorithm the body waited for
            # the client's delayed ACK of the headers, 40 ms a response.
            disable_nagle_algorithm = True
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def handle_one_request(self):
                if proxy.dead.is_set():
                    self.close_connection = True
                    return
                super().handle_one_request()

            def forward(self):
                length = int(self.headers.get("Content-Length", 0))
                body = self.rfile.read(length) if length else b""
                with proxy.lock:
                    proxy.counts[self.command] = proxy.counts.get(self.command, 0) + 1
                    rule = next((r for r in proxy.rules if r.wants(self.command, self.path)),
                                None)
                if rule is not None and rule.action == "die":
                    proxy.kill()
                    self.close_connection = True
                    return
                if rule is not None and rule.action == "status":
                    text = ("<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>SlowDown"
                            "</Code><Message>injected by fault_proxy</Message></Error>").encode()
                    self.send_response(rule.status)
                    self.send_header("Content-Type", "application/xml")
                    self.send_header("Content-Length", str(len(text)))
                    self.end_headers()
                    self.wfile.write(text)
                    return
                upstream = http.client.HTTPConnection(*proxy.upstream, timeout=60)
                upstream.putrequest(self.command, self.path, skip_host=True,
                                    skip_accept_encoding=True)
                for name, value in self.headers.items():
                    if name.lower() not in HOP_BY_HOP:
                        upstream.putheader(name, value)
                upstream.endheaders(body)
                response = upstream.getresponse()
                data = response.read()
                upstream.close()
                if rule is not None and rule.action == "delay":
                    time.sleep(rule.seconds)
                self.send_response(response.status, response.reason)
                # A HEAD's Content-Length is the object's size: kept as the server sent it.
                head = self.command == "HEAD"
                for name, value in response.getheaders():
                    if name.lower() not in HOP_BY_HOP and (head or name.lower() != "content-length"):
                        self.send_header(name, value)
                if not head:
                    self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                if rule is not None and rule.action == "slow_body" and len(data) > 1:
                    self.wfile.write(data[:len(data) // 2])
                    self.wfile.flush()
                    time.sleep(rule.seconds)
                    self.wfile.write(data[len(data) // 2:])
                    return
                if rule is not None and rule.action == "truncate" and len(data) > 1:
                    self.wfile.write(data[:len(data) // 2])
                    self.wfile.flush()
                    self.connection.shutdown(socket.SHUT_RDWR)
                    self.close_connection = True
                    return
                self.wfile.write(data)

            do_GET = do_PUT = do_POST = do_HEAD = do_DELETE = forward

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = "http://127.0.0.1:%d" % self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def start(self):
        self.thread.start()
        return self

    def kill(self):
        """From now on every connection is closed without an answer, and the listening socket is
        closed (later connections are refused), as when the server is killed."""
        if not self.dead.is_set():
            self.dead.set()
            threading.Thread(target=self.halt, daemon=True).start()

    def halt(self):
        self.server.shutdown()
        self.server.server_close()

    def stop(self):
        self.dead.set()
        self.halt()

    def applied(self):
        return sum(rule.applied for rule in self.rules)
