// Darshan's per-file POSIX record as storage::CountingEnv keeps it (storage/counting_env.h): the
// counters, the state Darshan's update rules need, and the link to the record a thread opened
// next. Private to the storage library: only counting_env.cpp includes it.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>

#include "storage/counting_env.h"
#include "storage/io_counts.h"
#include "storage/spin_lock.h"
#include "storage/tick_clock.h"

namespace dlbench::storage {

namespace counting {

// Up to 32 distinct non-zero values with their counts (DARSHAN_COMMON_VAL_MAX_RUNTIME_COUNT);
// later new values are not tracked. The first four live in the record (a file's reads rarely
// have more sizes or strides); the other 28 get their own array when a fifth value comes.
class Tracked {
 public:
  void add(std::int64_t value) {
    if (value == 0) return;
    for (std::size_t i = 0; i < size_; ++i) {
      Entry& entry = at(i);
      if (entry.first == value) {
        ++entry.second;
        return;
      }
    }
    if (size_ == kMax) return;
    if (size_ == kInline && !more_) more_ = std::make_unique<Entry[]>(kMax - kInline);
    at(size_++) = {value, 1};
  }
  CommonValues top() const {
    CommonValues top{};
    for (std::size_t i = 0; i < size_; ++i) {
      CommonValues one{};
      one[0] = i < kInline ? inline_[i] : more_[i - kInline];
      MergeCommonValues(top, one);
    }
    return top;
  }

 private:
  using Entry = std::pair<std::int64_t, std::uint64_t>;
  static constexpr std::size_t kInline = 4, kMax = 32;
  Entry& at(std::size_t i) { return i < kInline ? inline_[i] : more_[i - kInline]; }

  std::array<Entry, kInline> inline_{};
  std::unique_ptr<Entry[]> more_;  // values 5 to 32
  std::uint8_t size_ = 0;
};

// One direction's (reads' or writes') counters and the state Darshan's rules keep for it.
struct Side {
  std::uint64_t ops = 0, seq = 0, consec = 0;
  Bytes bytes = 0;
  std::int64_t last_byte = 0, max_byte = 0;  // last_byte: reset by every open and close
  double start = 0, end = 0, time = 0, last_end = 0;
  double slowest = 0;
  std::int64_t slowest_size = 0;
  std::array<std::uint64_t, kSizeBuckets> sizes{};
};

}  // namespace counting

// Darshan's per-file record: the counters and the state its update rules need (last byte read
// and written, the direction of the last access, one last-end time per timer class, and up to 32
// distinct access sizes and strides with their counts), laid out for the read path: what a read
// touches is in the first cache lines. Every method takes the record's lock.
class CountingEnv::Record {
 public:
  // `folded`: the record of files beyond the budget (CountingEnv::fold), never predicted.
  explicit Record(std::string_view path, bool folded = false)
      : path_size_(path.size()), folded_(folded) {
    if (path.size() <= kInlinePath) {
      path.copy(inline_path_.data(), path.size());
    } else {
      long_path_ = path;
    }
  }
  std::string_view path() const {
    return path_size_ <= kInlinePath ? std::string_view(inline_path_.data(), path_size_)
                                     : std::string_view(long_path_);
  }

  void open(double t1, double t2, bool creates) {
    std::lock_guard lock(lock_);
    ++s_.opens;
    if (creates) ++s_.creates;
    s_.read.last_byte = s_.write.last_byte = 0;  // Darshan resets them on every open
    Span(s_.open_start, s_.open_end, t1, t2);
    AddTime(s_.meta_time, s_.last_meta_end, t1, t2);
  }
  void close(double t1, double t2) {
    std::lock_guard lock(lock_);
    ++s_.closes;
    s_.read.last_byte = s_.write.last_byte = 0;
    Span(s_.close_start, s_.close_end, t1, t2);
    AddTime(s_.meta_time, s_.last_meta_end, t1, t2);
  }
  enum class Meta { kStat, kRename, kRenameTarget };
  void meta(Meta what, double t1, double t2) {
    std::lock_guard lock(lock_);
    ++(what == Meta::kStat ? s_.stats : what == Meta::kRename ? s_.renames : s_.rename_targets);
    AddTime(s_.meta_time, s_.last_meta_end, t1, t2);
  }
  void sync(double t1, double t2) {
    std::lock_guard lock(lock_);
    ++s_.syncs;
    AddTime(s_.write.time, s_.write.last_end, t1, t2);  // Darshan: fsync time is write time
  }
  void read(Bytes offset, const void* buffer, Bytes returned, double t1, double t2) {
    access(kRead, s_.read, offset, buffer, returned, t1, t2);
  }
  void write(Bytes offset, const void* buffer, Bytes length, double t1, double t2) {
    access(kWrite, s_.write, offset, buffer, length, t1, t2);
  }

  // The counters, times in seconds (`scale` converts the clock ticks the record keeps).
  IoCounts snapshot(const TickClock::Scale& scale) const {
    std::lock_guard lock(lock_);
    IoCounts c;
    c.opens = s_.opens;
    c.creates = s_.creates;
    c.closes = s_.closes;
    c.stats = s_.stats;
    c.syncs = s_.syncs;
    c.renames = s_.renames;
    c.rename_targets = s_.rename_targets;
    c.rw_switches = s_.rw_switches;
    c.mem_not_aligned = s_.mem_not_aligned;
    c.file_not_aligned = s_.file_not_aligned;
    c.open_start = scale.time(s_.open_start);
    c.open_end = scale.time(s_.open_end);
    c.close_start = scale.time(s_.close_start);
    c.close_end = scale.time(s_.close_end);
    c.meta_time = scale.duration(s_.meta_time);
    c.reads = s_.read.ops;
    c.bytes_read = s_.read.bytes;
    c.max_byte_read = s_.read.max_byte;
    c.seq_reads = s_.read.seq;
    c.consec_reads = s_.read.consec;
    c.size_read = s_.read.sizes;
    c.read_start = scale.time(s_.read.start);
    c.read_end = scale.time(s_.read.end);
    c.read_time = scale.duration(s_.read.time);
    c.max_read_time = scale.duration(s_.read.slowest);
    c.max_read_time_size = s_.read.slowest_size;
    c.writes = s_.write.ops;
    c.bytes_written = s_.write.bytes;
    c.max_byte_written = s_.write.max_byte;
    c.seq_writes = s_.write.seq;
    c.consec_writes = s_.write.consec;
    c.size_write = s_.write.sizes;
    c.write_start = scale.time(s_.write.start);
    c.write_end = scale.time(s_.write.end);
    c.write_time = scale.duration(s_.write.time);
    c.max_write_time = scale.duration(s_.write.slowest);
    c.max_write_time_size = s_.write.slowest_size;
    c.accesses = s_.accesses.top();
    c.strides = s_.strides.top();
    return c;
  }
  void reset() {
    std::lock_guard lock(lock_);
    s_ = State();
  }

 private:
  enum Direction : std::uint8_t { kNone, kRead, kWrite };

  // Darshan's sequence, size, alignment, common-value and timing rules for one access.
  void access(Direction direction, counting::Side& side, Bytes offset, const void* buffer,
              Bytes bytes, double t1, double t2) {
    std::lock_guard lock(lock_);
    ++side.ops;
    side.bytes += bytes;
    if (s_.last_direction != kNone && s_.last_direction != direction) ++s_.rw_switches;
    s_.last_direction = direction;
    const auto o = static_cast<std::int64_t>(offset);
    if (o > side.last_byte) ++side.seq;
    if (o == side.last_byte + 1) ++side.consec;
    s_.strides.add(o > 0 && o > side.last_byte && side.last_byte != 0 ? o - side.last_byte - 1 : 0);
    side.last_byte = o + static_cast<std::int64_t>(bytes) - 1;
    side.max_byte = std::max(side.max_byte, side.last_byte);
    ++side.sizes[SizeBucket(bytes)];
    s_.accesses.add(static_cast<std::int64_t>(bytes));
    if (reinterpret_cast<std::uintptr_t>(buffer) % kMemAlignment != 0) ++s_.mem_not_aligned;
    if (o % kFileAlignment != 0) ++s_.file_not_aligned;
    Span(side.start, side.end, t1, t2);
    AddTime(side.time, side.last_end, t1, t2);
    if (t2 - t1 > side.slowest) {
      side.slowest = t2 - t1;
      side.slowest_size = static_cast<std::int64_t>(bytes);
    }
  }
  // DARSHAN_TIMER_INC_NO_OVERLAP, as Darshan has it (a negative difference is added too).
  static void AddTime(double& total, double& last_end, double t1, double t2) {
    if (t1 == 0 || t2 == 0) return;
    total += t1 > last_end ? t2 - t1 : t2 - last_end;
    last_end = std::max(last_end, t2);
  }
  static void Span(double& start, double& end, double t1, double t2) {
    if (start == 0 || t1 < start) start = t1;
    end = std::max(end, t2);
  }

  // The next record, then the path, in the record when it is short, then the open's and close's
  // counters: with the rest of what an open, a read and a close touch (everything before `write`,
  // ~9 cache lines) they are prefetched before the open's system call (CountingEnv::find), or
  // during the previous file's I/O when the record was predicted (CountingEnv::counted_open). A
  // path in its own heap block cost a second dependent cache miss per open (~0.1 us of the
  // comparison, perf, 8,192 files).
  static constexpr std::size_t kInlinePath = 112;
  std::atomic<Record*> next_{nullptr};  // see next()
  std::size_t path_size_;
  std::array<char, kInlinePath> inline_path_;
  // Taken for a handful of instructions by the thread that uses the file (another thread only when
  // two handles of one path are used at once, or a snapshot runs): one byte, not a mutex.
  mutable SpinLock lock_;
  bool folded_;
  struct State {
    Direction last_direction = kNone;
    std::uint64_t opens = 0, creates = 0, closes = 0, stats = 0, syncs = 0, renames = 0,
                  rename_targets = 0;
    double open_start = 0, open_end = 0, close_start = 0, close_end = 0;
    double meta_time = 0, last_meta_end = 0;
    std::uint64_t rw_switches = 0, mem_not_aligned = 0, file_not_aligned = 0;
    counting::Side read;
    counting::Tracked accesses, strides;
    counting::Side write;
  } s_;
  std::string long_path_;  // a path longer than kInlinePath

 public:
  // The record of the file that a thread opened right after this one, the last time one did: a
  // dataset read again in the same order opens it next (CountingEnv::counted_open). Records are
  // never freed while the wrapper lives, so the pointer stays valid; the path it leads to is set
  // at construction and never changes, so any thread may compare it.
  Record* next() const { return next_.load(std::memory_order_acquire); }
  bool folded() const { return folded_; }
  void set_next(Record* next) { next_.store(next, std::memory_order_release); }
  // Starts fetching what a read-only file's open, reads and close touch into the cache.
  void prefetch() const {
    const char* first = reinterpret_cast<const char*>(this);
    const char* end = reinterpret_cast<const char*>(&s_.write);
    for (const char* line = first; line < end; line += 64) __builtin_prefetch(line);
  }
};

}  // namespace dlbench::storage
