// The op-log (`--op-log FILE`): one tab-separated line per S3 request, in the columns of MinIO
// warp's op-log, which s3dlio writes too and their analysis tools read:
//   idx thread op client_id n_objects bytes endpoint file error start first_byte end duration_ns
// - idx: the line's number from 0; thread: a small number per client thread; client_id: the
//   caller's name of the process (dlbench: host:rank); n_objects: 1; bytes: payload sent or
//   received (0 for a failed request);
// - op: warp's names: GET (whole or range), PUT (also a multipart upload's start, parts and
//   completion), STAT (HEAD), LIST, DELETE (also an aborted upload);
// - file: bucket/key (a listing: bucket/prefix); error: empty, or the failure as dlbench
//   reports it;
// - start, first_byte, end: RFC 3339 UTC with nanoseconds ("2026-12-02T04:31:07.123456789Z");
//   first_byte is the last attempt's first response byte (= end when none came); duration_ns =
//   end - start. A retried request is one line, its retries included in its time.
// Lines are buffered and written through storage::PosixEnv(); the file is complete after close()
// (or the destructor). Thread-safe: record() may be called from any number of threads.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "storage/file.h"

namespace dlbench::s3 {

struct OpRecord {
  std::string_view op;  // warp's: GET, PUT, STAT, LIST, DELETE
  std::uint64_t objects = 1;
  std::uint64_t bytes = 0;
  std::string_view bucket;
  std::string_view key;
  std::string_view error;  // empty when the request succeeded
  std::chrono::system_clock::time_point start;
  std::chrono::system_clock::time_point first_byte;
  std::chrono::system_clock::time_point end;
};

class OpLog {
 public:
  // Creates `path` (replacing a file of that name) with the header line; Error(kIo) naming it.
  OpLog(const std::string& path, std::string endpoint, std::string client_id);
  ~OpLog();
  OpLog(const OpLog&) = delete;
  OpLog& operator=(const OpLog&) = delete;

  void record(const OpRecord& record);
  // Writes what is buffered and closes the file; Error(kIo) when that fails. Later records are
  // dropped.
  void close();

  const std::string& path() const { return path_; }

 private:
  void flush_locked();

  std::string path_;
  std::string endpoint_;
  std::string client_id_;
  std::mutex mutex_;
  std::unique_ptr<storage::WritableFile> file_;
  std::string buffer_;
  std::uint64_t next_index_ = 0;
};

// Where rank `rank` of a job of several writes the op-log the user named `path`: the rank before
// the extension, which the peers' readers go by ("ops.tsv" -> "ops.3.tsv", "ops" -> "ops.3").
std::string RankOpLogPath(const std::string& path, int rank);

// "2026-12-02T04:31:07.123456789Z".
std::string FormatUtcNanos(std::chrono::system_clock::time_point time);

}  // namespace dlbench::s3
