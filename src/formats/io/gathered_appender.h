// Sequential writing of a file assembled from pieces kept in memory (the assembled formats'
// pools of pre-encoded pieces), without copying them: each flush is one gathered write
// (storage::WritableFile::append_gathered) of the pieces appended since the last one. Bytes of
// the file's own (headers, checksums, a few values) are copied into a small caller-provided
// buffer, each run of them one piece of the write.
//
// The piece slots (IOV_MAX of them, 16 KiB) are one vector per thread, which each appender takes
// while it lives and gives back, so that writing a file allocates nothing (an appender made
// while another lives on the same thread gets its own).
//
// What must outlive what: the buffer outlives the appender; a piece passed to keep() stays
// unchanged until the next flush (the pools are immutable while files are written).
#pragma once

#include <climits>
#include <cstddef>
#include <cstring>
#include <span>
#include <vector>

#include "storage/file.h"
#include "util/units.h"

namespace dlbench::formats {

class GatheredAppender {
 public:
  // Pieces per gathered write: one pwritev each (storage/posix_file.cpp writes IOV_MAX at once).
  static constexpr std::size_t kMaxPieces = IOV_MAX;
  // Pieces shorter than this are copied into the buffer: an iovec and a piece boundary cost more
  // than copying a few bytes.
  static constexpr std::size_t kCopyBelow = 256;

  // `buffer` must be non-empty and outlive the appender.
  GatheredAppender(storage::WritableFile& file, std::span<std::byte> buffer)
      : file_(file), buffer_(buffer) {
    pieces_.swap(ThreadPieces());
    pieces_.reserve(kMaxPieces);
  }
  ~GatheredAppender() {
    pieces_.clear();
    ThreadPieces().swap(pieces_);
  }
  GatheredAppender(const GatheredAppender&) = delete;
  GatheredAppender& operator=(const GatheredAppender&) = delete;

  // Appends `bytes`, which stay unchanged until the next flush, by reference (copied when short).
  void keep(std::span<const std::byte> bytes) {
    if (bytes.size() < kCopyBelow) {
      copy(bytes);
      return;
    }
    if (pieces_.size() == kMaxPieces) flush();
    pieces_.push_back(bytes);
  }
  // Appends a copy of `bytes`.
  void copy(std::span<const std::byte> bytes) {
    if (bytes.empty()) return;
    if (bytes.size() > buffer_.size() - used_ || pieces_.size() == kMaxPieces) flush();
    if (bytes.size() > buffer_.size()) {  // larger than the whole buffer: written on its own
      file_.append(bytes.data(), bytes.size());
      return;
    }
    std::byte* at = buffer_.data() + used_;
    std::memcpy(at, bytes.data(), bytes.size());
    used_ += bytes.size();
    if (!pieces_.empty() && pieces_.back().data() + pieces_.back().size() == at) {
      pieces_.back() = {pieces_.back().data(), pieces_.back().size() + bytes.size()};
    } else {
      pieces_.emplace_back(at, bytes.size());
    }
  }
  void copy(const void* data, std::size_t length) {
    copy(std::span(static_cast<const std::byte*>(data), length));
  }
  // Writes what was appended since the last flush (nothing when nothing was).
  void flush() {
    if (!pieces_.empty()) file_.append_gathered(pieces_);
    pieces_.clear();
    used_ = 0;
  }

 private:
  using Pieces = std::vector<std::span<const std::byte>>;
  static Pieces& ThreadPieces() {
    thread_local Pieces pieces;
    return pieces;
  }

  storage::WritableFile& file_;
  std::span<std::byte> buffer_;
  std::size_t used_ = 0;
  Pieces pieces_;
};

}  // namespace dlbench::formats
