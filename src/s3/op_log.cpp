#include "s3/op_log.h"

#include <atomic>
#include <cstdio>
#include <ctime>
#include <utility>

#include "util/error.h"

namespace dlbench::s3 {
namespace {

constexpr std::size_t kFlushBytes = 256 * 1024;

// A small number per thread, in the order threads first log.
int ThreadNumber() {
  static std::atomic<int> next{0};
  thread_local const int number = next.fetch_add(1);
  return number;
}

// Tabs and line ends in a field would break the columns; a field holding a '"' is quoted, its
// quotes doubled, as the CSV readers of warp and s3dlio expect (a key may hold any character).
void AppendField(std::string& out, std::string_view text) {
  const bool quoted = text.find('"') != std::string_view::npos;
  if (quoted) out += '"';
  for (const char c : text) {
    if (c == '"') out += '"';
    out += (c == '\t' || c == '\n' || c == '\r') ? ' ' : c;
  }
  if (quoted) out += '"';
}

}  // namespace

std::string RankOpLogPath(const std::string& path, int rank) {
  const std::size_t base = path.rfind('/') + 1;  // 0 when there is no '/'
  const std::size_t dot = path.find('.', base + 1);
  const std::string suffix = "." + std::to_string(rank);
  if (dot == std::string::npos) return path + suffix;
  return path.substr(0, dot) + suffix + path.substr(dot);
}

std::string FormatUtcNanos(std::chrono::system_clock::time_point time) {
  const auto since = time.time_since_epoch();
  const auto seconds = std::chrono::floor<std::chrono::seconds>(since);
  const auto nanos = std::chrono::duration_cast<std::chrono::nanoseconds>(since - seconds).count();
  const std::time_t t = static_cast<std::time_t>(seconds.count());
  std::tm utc{};
  gmtime_r(&t, &utc);
  char text[48];
  const int n = std::snprintf(text, sizeof text, "%04d-%02d-%02dT%02d:%02d:%02d.%09lldZ",
                              utc.tm_year + 1900, utc.tm_mon + 1, utc.tm_mday, utc.tm_hour,
                              utc.tm_min, utc.tm_sec, static_cast<long long>(nanos));
  return std::string(text, static_cast<std::size_t>(n));
}

OpLog::OpLog(const std::string& path, std::string endpoint, std::string client_id)
    : path_(path),
      endpoint_(std::move(endpoint)),
      client_id_(std::move(client_id)),
      file_(storage::PosixEnv().create(path)) {
  buffer_ =
      "idx\tthread\top\tclient_id\tn_objects\tbytes\tendpoint\tfile\terror\tstart\tfirst_byte\t"
      "end\tduration_ns\n";
}

OpLog::~OpLog() {
  try {
    close();
  } catch (...) {  // NOLINT(bugprone-empty-catch): a destructor must not throw; close() reports
  }
}

void OpLog::record(const OpRecord& record) {
  const long long duration =
      std::chrono::duration_cast<std::chrono::nanoseconds>(record.end - record.start).count();
  std::string line;
  line.reserve(256);
  const std::lock_guard lock(mutex_);
  if (!file_) return;
  line += std::to_string(next_index_++);
  line += '\t';
  line += std::to_string(ThreadNumber());
  line += '\t';
  line += record.op;
  line += '\t';
  AppendField(line, client_id_);
  line += '\t';
  line += std::to_string(record.objects);
  line += '\t';
  line += std::to_string(record.bytes);
  line += '\t';
  AppendField(line, endpoint_);
  line += '\t';
  std::string file(record.bucket);
  file += '/';
  file += record.key;
  AppendField(line, file);
  line += '\t';
  AppendField(line, record.error);
  line += '\t';
  line += FormatUtcNanos(record.start);
  line += '\t';
  line += FormatUtcNanos(record.first_byte);
  line += '\t';
  line += FormatUtcNanos(record.end);
  line += '\t';
  line += std::to_string(duration);
  line += '\n';
  buffer_ += line;
  if (buffer_.size() >= kFlushBytes) flush_locked();
}

void OpLog::flush_locked() {
  file_->append(buffer_.data(), buffer_.size());
  buffer_.clear();
}

void OpLog::close() {
  const std::lock_guard lock(mutex_);
  if (!file_) return;
  std::unique_ptr<storage::WritableFile> file = std::move(file_);
  file->append(buffer_.data(), buffer_.size());
  buffer_.clear();
  file->close();
}

}  // namespace dlbench::s3
