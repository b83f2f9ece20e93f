// The trace file's bytes: each write() is one independent gzip member (RFC 1952 §2.2, as DFTracer
// and Perfetto's multi-member reader expect), so a file cut short — a rank killed mid-run —
// still decompresses up to its last complete member. Without compression the text is appended as
// is. Written through storage::PosixEnv: the trace is a result file, not the workload's I/O.
// Compressed by libdeflate, which compresses a whole buffer at a time — what a member is — with
// ~10 % fewer bytes than zlib at the same level and no more CPU (results/trace.md). GzipCompressor
// makes the members in memory, for files written otherwise (the counters files, written whole
// through a rename).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "storage/file.h"

struct libdeflate_compressor;

namespace dlbench::trace {

// Makes gzip members (RFC 1952) with libdeflate at one level.
class GzipCompressor {
 public:
  // Throws Error(kUsage) for a level outside 1..9.
  explicit GzipCompressor(int level);
  ~GzipCompressor();
  GzipCompressor(const GzipCompressor&) = delete;
  GzipCompressor& operator=(const GzipCompressor&) = delete;

  // `text` as one gzip member; valid until the next call.
  std::string_view member(std::string_view text);

 private:
  struct FreeCompressor {
    void operator()(libdeflate_compressor* c) const;
  };
  std::unique_ptr<libdeflate_compressor, FreeCompressor> compressor_;
  std::vector<unsigned char> out_;
};

class GzipMembers {
 public:
  // Creates `path`. Throws Error(kIo) naming it, Error(kUsage) for a level outside 1..9.
  GzipMembers(const std::string& path, bool compress, int level);
  ~GzipMembers();
  GzipMembers(const GzipMembers&) = delete;
  GzipMembers& operator=(const GzipMembers&) = delete;

  // Appends `text` as one member. Throws Error(kIo).
  void write(std::string_view text);
  // Closes the file. Throws Error(kIo).
  void close();

  std::uint64_t bytes() const { return bytes_; }
  std::uint64_t members() const { return members_; }

 private:
  std::unique_ptr<GzipCompressor> compressor_;  // null without compression
  std::unique_ptr<storage::WritableFile> file_;
  std::uint64_t bytes_ = 0;
  std::uint64_t members_ = 0;
};

// Decompresses every complete member of `data` (tests and tools): returns the text and whether the
// data ended cleanly (false: a truncated or corrupt last member, whose partial text is dropped).
struct Inflated {
  std::string text;
  bool complete = true;
};
Inflated InflateMembers(std::string_view data);

}  // namespace dlbench::trace
