// The client's physical limit on S3 reads, for scripts/bench/bench-s3.sh: THREADS threads that
// each GET their share of a list of objects, whole, over one kept-alive libcurl connection per
// thread (TCP_NODELAY), nothing else — no format, no queue, no metrics, no retries. The requests
// are signed by libcurl itself (CURLOPT_AWS_SIGV4), so this loop shares no code with dlbench's S3
// client. dlbench's samples/s on the same objects (one sample per object) divided by this loop's
// objects/s is how much of the limit its S3 read path reaches.
//
//   bare_s3_get_loop THREADS PASSES BUCKET KEYS_FILE
//
// KEYS_FILE holds one key per line. Thread t reads the t-th of THREADS contiguous shards of the
// list in every pass, in list order, into one buffer it reuses for every object (as dlbench
// reuses its sample buffers). The endpoint, credentials and region come from AWS_ENDPOINT_URL,
// AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_REGION (default us-east-1); addressing is
// path-style. The threads start together and the time runs from their release to the last
// one's end. Prints one line: "objects/s OBJECTS_READ SECONDS BYTES". Any failed request (an
// HTTP status other than 200 or 206, a transfer error) ends the program with exit 1, naming the
// key. With BARE_S3_RANGE=LAST set, every GET asks for the range bytes=0-LAST instead (what a
// reader that does not know an object's size sends): the server's cost of a range GET against
// a plain one.
#include <curl/curl.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

namespace {

[[noreturn]] void Die(const std::string& what) {
  std::fprintf(stderr, "bare_s3_get_loop: %s\n", what.c_str());
  std::exit(1);
}

std::string Environment(const char* name, const char* fallback) {
  const char* value = std::getenv(name);
  if (value != nullptr && *value != '\0') return value;
  if (fallback == nullptr) Die(std::string(name) + " is not set");
  return fallback;
}

// The body of one GET lands here, in a buffer that grows to the largest object and is reused.
struct Body {
  std::vector<char> buffer;
  std::size_t size = 0;
};

std::size_t Receive(char* data, std::size_t one, std::size_t count, void* user) {
  auto* body = static_cast<Body*>(user);
  const std::size_t bytes = one * count;
  if (body->size + bytes > body->buffer.size()) body->buffer.resize(2 * (body->size + bytes));
  std::memcpy(body->buffer.data() + body->size, data, bytes);
  body->size += bytes;
  return bytes;
}

struct Share {
  std::size_t first = 0;
  std::size_t count = 0;
  unsigned long long bytes = 0;
};

void ReadShare(const std::vector<std::string>& urls, int passes, const std::string& sigv4,
               const std::string& user, const std::string& secret, const std::atomic<bool>& go,
               Share& share) {
  CURL* curl = curl_easy_init();
  if (curl == nullptr) Die("curl_easy_init failed");
  Body body;
  curl_easy_setopt(curl, CURLOPT_AWS_SIGV4, sigv4.c_str());
  curl_easy_setopt(curl, CURLOPT_USERNAME, user.c_str());
  curl_easy_setopt(curl, CURLOPT_PASSWORD, secret.c_str());
  curl_easy_setopt(curl, CURLOPT_TCP_NODELAY, 1L);
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, Receive);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &body);
  curl_slist* headers = curl_slist_append(nullptr, "x-amz-content-sha256: UNSIGNED-PAYLOAD");
  const char* range = std::getenv("BARE_S3_RANGE");
  if (range != nullptr)
    headers = curl_slist_append(headers, (std::string("Range: bytes=0-") + range).c_str());
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
  while (!go.load(std::memory_order_acquire)) std::this_thread::yield();
  for (int pass = 0; pass < passes; ++pass) {
    for (std::size_t i = share.first; i < share.first + share.count; ++i) {
      body.size = 0;
      curl_easy_setopt(curl, CURLOPT_URL, urls[i].c_str());
      const CURLcode done = curl_easy_perform(curl);
      if (done != CURLE_OK) Die("GET " + urls[i] + ": " + curl_easy_strerror(done));
      long status = 0;
      curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
      if (status != 200 && status != 206) {
        Die("GET " + urls[i] + ": HTTP " + std::to_string(status) + ": " +
            std::string(body.buffer.data(), std::min<std::size_t>(body.size, 300)));
      }
      share.bytes += body.size;
    }
  }
  curl_slist_free_all(headers);
  curl_easy_cleanup(curl);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: bare_s3_get_loop THREADS PASSES BUCKET KEYS_FILE\n");
    return 2;
  }
  const int threads = std::atoi(argv[1]);
  const int passes = std::atoi(argv[2]);
  if (threads < 1 || passes < 1) Die("THREADS and PASSES must be positive");
  std::string endpoint = Environment("AWS_ENDPOINT_URL", nullptr);
  while (!endpoint.empty() && endpoint.back() == '/') endpoint.pop_back();
  const std::string sigv4 = "aws:amz:" + Environment("AWS_REGION", "us-east-1") + ":s3";
  const std::string user = Environment("AWS_ACCESS_KEY_ID", nullptr);
  const std::string secret = Environment("AWS_SECRET_ACCESS_KEY", nullptr);

  std::vector<std::string> urls;
  std::ifstream keys(argv[4]);
  if (!keys) Die(std::string("cannot read ") + argv[4]);
  for (std::string key; std::getline(keys, key);) {
    // Keys made by the benchmark: letters, digits, '/', '_', '-', '.' — nothing to escape.
    if (!key.empty()) urls.push_back(endpoint + "/" + argv[3] + "/" + key);
  }
  if (urls.size() < static_cast<std::size_t>(threads)) Die("fewer keys than threads");

  if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) Die("curl_global_init failed");
  std::vector<Share> shares(static_cast<std::size_t>(threads));
  const std::size_t shard = urls.size() / shares.size();
  for (std::size_t t = 0; t < shares.size(); ++t) {
    shares[t].first = shard * t;
    shares[t].count = shard;
  }
  std::atomic<bool> go{false};
  std::vector<std::thread> workers;
  for (Share& share : shares) {
    workers.emplace_back(ReadShare, std::cref(urls), passes, std::cref(sigv4), std::cref(user),
                         std::cref(secret), std::cref(go), std::ref(share));
  }
  const auto start = std::chrono::steady_clock::now();
  go.store(true, std::memory_order_release);
  for (std::thread& worker : workers) worker.join();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  curl_global_cleanup();
  unsigned long long bytes = 0;
  for (const Share& share : shares) bytes += share.bytes;
  const double objects = static_cast<double>(shard * shares.size()) * passes;
  std::printf("%.1f %.0f %.6f %llu\n", objects / seconds, objects, seconds, bytes);
  return 0;
}
