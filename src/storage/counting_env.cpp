#include "storage/counting_env.h"

#include <algorithm>
#include <utility>

namespace dlbench::storage {

// Darshan's per-file record: the counters and the state its update rules need (last byte read
// and written, the direction of the last access, one last-end time per timer class, and up to 32
// distinct access sizes and strides with their counts). Every method takes the record's mutex.
class CountingEnv::Record {
 public:
  void open(double t1, double t2, bool creates) {
    std::lock_guard lock(mutex_);
    ++c_.opens;
    if (creates) ++c_.creates;
    last_byte_read_ = last_byte_written_ = 0;  // Darshan resets them on every open
    Span(c_.open_start, c_.open_end, t1, t2);
    AddTime(c_.meta_time, last_meta_end_, t1, t2);
  }
  void close(double t1, double t2) {
    std::lock_guard lock(mutex_);
    ++c_.closes;
    last_byte_read_ = last_byte_written_ = 0;
    Span(c_.close_start, c_.close_end, t1, t2);
    AddTime(c_.meta_time, last_meta_end_, t1, t2);
  }
  void meta(std::uint64_t IoCounts::*count, double t1, double t2) {
    std::lock_guard lock(mutex_);
    ++(c_.*count);
    AddTime(c_.meta_time, last_meta_end_, t1, t2);
  }
  void sync(double t1, double t2) {
    std::lock_guard lock(mutex_);
    ++c_.syncs;
    AddTime(c_.write_time, last_write_end_, t1, t2);  // Darshan: fsync time is write time
  }
  void read(Bytes offset, const void* buffer, Bytes returned, double t1, double t2) {
    std::lock_guard lock(mutex_);
    ++c_.reads;
    c_.bytes_read += returned;
    Access(kRead, offset, buffer, returned, last_byte_read_, c_.max_byte_read, c_.seq_reads,
           c_.consec_reads, c_.size_read);
    Span(c_.read_start, c_.read_end, t1, t2);
    AddTime(c_.read_time, last_read_end_, t1, t2);
    Slowest(c_.max_read_time, c_.max_read_time_size, t2 - t1, returned);
  }
  void write(Bytes offset, const void* buffer, Bytes length, double t1, double t2) {
    std::lock_guard lock(mutex_);
    ++c_.writes;
    c_.bytes_written += length;
    Access(kWrite, offset, buffer, length, last_byte_written_, c_.max_byte_written, c_.seq_writes,
           c_.consec_writes, c_.size_write);
    Span(c_.write_start, c_.write_end, t1, t2);
    AddTime(c_.write_time, last_write_end_, t1, t2);
    Slowest(c_.max_write_time, c_.max_write_time_size, t2 - t1, length);
  }

  IoCounts snapshot() const {
    std::lock_guard lock(mutex_);
    IoCounts c = c_;
    c.accesses = accesses_.top();
    c.strides = strides_.top();
    return c;
  }
  void reset() {
    std::lock_guard lock(mutex_);
    *this = Record();
  }
  Record() = default;
  Record& operator=(Record&& other) noexcept {  // for reset(): the mutex stays
    c_ = other.c_;
    last_byte_read_ = other.last_byte_read_;
    last_byte_written_ = other.last_byte_written_;
    last_direction_ = other.last_direction_;
    last_read_end_ = other.last_read_end_;
    last_write_end_ = other.last_write_end_;
    last_meta_end_ = other.last_meta_end_;
    accesses_ = other.accesses_;
    strides_ = other.strides_;
    return *this;
  }

 private:
  enum Direction { kNone, kRead, kWrite };

  // Up to 32 distinct non-zero values with their counts (DARSHAN_COMMON_VAL_MAX_RUNTIME_COUNT);
  // later new values are not tracked.
  class Tracked {
   public:
    void add(std::int64_t value) {
      if (value == 0) return;
      for (std::size_t i = 0; i < size_; ++i) {
        if (values_[i].first == value) {
          ++values_[i].second;
          return;
        }
      }
      if (size_ < values_.size()) values_[size_++] = {value, 1};
    }
    CommonValues top() const {
      CommonValues top{};
      for (std::size_t i = 0; i < size_; ++i) {
        CommonValues one{};
        one[0] = values_[i];
        MergeCommonValues(top, one);
      }
      return top;
    }

   private:
    std::array<std::pair<std::int64_t, std::uint64_t>, 32> values_{};
    std::size_t size_ = 0;
  };

  // Darshan's sequence, size, alignment and common-value rules for one access (§3.2).
  void Access(Direction direction, Bytes offset, const void* buffer, Bytes bytes,
              std::int64_t& last_byte, std::int64_t& max_byte, std::uint64_t& seq,
              std::uint64_t& consec, std::array<std::uint64_t, kSizeBuckets>& sizes) {
    if (last_direction_ != kNone && last_direction_ != direction) ++c_.rw_switches;
    last_direction_ = direction;
    const auto o = static_cast<std::int64_t>(offset);
    if (o > last_byte) ++seq;
    if (o == last_byte + 1) ++consec;
    strides_.add(o > 0 && o > last_byte && last_byte != 0 ? o - last_byte - 1 : 0);
    last_byte = o + static_cast<std::int64_t>(bytes) - 1;
    max_byte = std::max(max_byte, last_byte);
    ++sizes[SizeBucket(bytes)];
    accesses_.add(static_cast<std::int64_t>(bytes));
    if (reinterpret_cast<std::uintptr_t>(buffer) % kMemAlignment != 0) ++c_.mem_not_aligned;
    if (o % kFileAlignment != 0) ++c_.file_not_aligned;
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
  static void Slowest(double& max_time, std::int64_t& size, double time, Bytes bytes) {
    if (time > max_time) {
      max_time = time;
      size = static_cast<std::int64_t>(bytes);
    }
  }

  mutable std::mutex mutex_;
  IoCounts c_;
  std::int64_t last_byte_read_ = 0;
  std::int64_t last_byte_written_ = 0;
  Direction last_direction_ = kNone;
  double last_read_end_ = 0, last_write_end_ = 0, last_meta_end_ = 0;
  Tracked accesses_, strides_;
};

namespace {

using Record = CountingEnv::Record;

class CountingReadableFile final : public ReadableFileWrapper {
 public:
  CountingReadableFile(std::unique_ptr<ReadableFile> target, const CountingEnv& env, Record& record)
      : ReadableFileWrapper(std::move(target)), env_(env), record_(record) {}
  ~CountingReadableFile() override {
    const double t = env_.now();
    record_.close(t, t);  // the descriptor closes with the wrapped file, just after
  }
  Bytes read_at(Bytes offset, void* buffer, Bytes length) override {
    const double t1 = env_.now();
    const Bytes n = ReadableFileWrapper::read_at(offset, buffer, length);
    record_.read(offset, buffer, n, t1, env_.now());
    return n;
  }

 private:
  const CountingEnv& env_;
  Record& record_;
};

// What every written file (one process's or a shared one) counts alike: fsyncs, the close, and a
// close by the wrapped file's destructor when nobody called close().
template <class Wrapper>
class CountingWrites : public Wrapper {
 public:
  template <class Target>
  CountingWrites(std::unique_ptr<Target> target, const CountingEnv& env, Record& record)
      : Wrapper(std::move(target)), env_(env), record_(record) {}
  ~CountingWrites() override {
    if (closed_) return;
    const double t = env_.now();
    record_.close(t, t);  // the wrapped file's destructor closes it, just after
  }
  void sync() override {
    const double t1 = env_.now();
    Wrapper::sync();
    record_.sync(t1, env_.now());
  }
  void close() override {
    const double t1 = env_.now();
    Wrapper::close();
    closed_ = true;
    record_.close(t1, env_.now());
  }

 protected:
  // Times `write()` (which writes `length` bytes at `offset`) and counts it.
  template <class Write>
  void counted_write(Bytes offset, const void* data, Bytes length, Write&& write) {
    const double t1 = env_.now();
    write();
    record_.write(offset, data, length, t1, env_.now());
  }
  // Times `read()` (which returns the bytes it read at `offset`) and counts it.
  template <class Read>
  Bytes counted_read(Bytes offset, void* data, Read&& read) {
    const double t1 = env_.now();
    const Bytes n = read();
    record_.read(offset, data, n, t1, env_.now());
    return n;
  }

 private:
  const CountingEnv& env_;
  Record& record_;
  bool closed_ = false;
};

class CountingWritableFile final : public CountingWrites<WritableFileWrapper> {
 public:
  using CountingWrites::CountingWrites;
  void write_at(Bytes offset, const void* buffer, Bytes length) override {
    counted_write(offset, buffer, length,
                  [&] { WritableFileWrapper::write_at(offset, buffer, length); });
  }
  void append(const void* buffer, Bytes length) override {
    counted_write(appended(), buffer, length, [&] { WritableFileWrapper::append(buffer, length); });
  }
};

// A shared file's writes and reads count as a file's (Darshan's cross-rank reduction then makes
// one record of it when every rank wrote it); its bytes are this process's share.
class CountingSharedFile final : public CountingWrites<SharedFileWrapper> {
 public:
  using CountingWrites::CountingWrites;
  void write_at_all(Bytes offset, const void* data, Bytes length) override {
    counted_write(offset, data, length,
                  [&] { SharedFileWrapper::write_at_all(offset, data, length); });
  }
  void write_at(Bytes offset, const void* data, Bytes length) override {
    counted_write(offset, data, length, [&] { SharedFileWrapper::write_at(offset, data, length); });
  }
  Bytes read_at(Bytes offset, void* data, Bytes length) override {
    return counted_read(offset, data,
                        [&] { return SharedFileWrapper::read_at(offset, data, length); });
  }
  Bytes read_at_all(Bytes offset, void* data, Bytes length) override {
    return counted_read(offset, data,
                        [&] { return SharedFileWrapper::read_at_all(offset, data, length); });
  }
};

}  // namespace

CountingEnv::CountingEnv(Env& target, std::chrono::steady_clock::time_point origin)
    : EnvWrapper(target), origin_(origin) {}

CountingEnv::~CountingEnv() = default;

double CountingEnv::now() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - origin_).count();
}

CountingEnv::Record& CountingEnv::record(const std::string& path) {
  std::lock_guard lock(mutex_);
  std::unique_ptr<Record>& record = records_[path];
  if (!record) record = std::make_unique<Record>();
  return *record;
}

void CountingEnv::add_env_op(std::uint64_t IoCounts::*count) {
  std::lock_guard lock(mutex_);
  ++(env_ops_.*count);
}

IoCounts CountingEnv::counts() const {
  std::lock_guard lock(mutex_);
  IoCounts total = env_ops_;
  for (const auto& [path, record] : records_) MergeCounts(total, record->snapshot());
  return total;
}

std::vector<FileCounts> CountingEnv::files() const {
  std::vector<FileCounts> files;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [path, record] : records_) files.push_back({path, 0, record->snapshot()});
  }
  std::sort(files.begin(), files.end(),
            [](const FileCounts& a, const FileCounts& b) { return a.path < b.path; });
  return files;
}

void CountingEnv::reset() {
  std::lock_guard lock(mutex_);
  env_ops_ = {};
  for (auto& [path, record] : records_) record->reset();
}

template <class Open>
auto CountingEnv::counted_open(const std::string& path, bool creates, Open&& open) {
  const double t1 = now();
  auto file = open();
  const double t2 = now();
  Record& counted = record(path);
  counted.open(t1, t2, creates);
  using Counting = std::conditional_t<std::is_same_v<decltype(file), std::unique_ptr<ReadableFile>>,
                                      CountingReadableFile, CountingWritableFile>;
  return std::make_unique<Counting>(std::move(file), *this, counted);
}

std::unique_ptr<ReadableFile> CountingEnv::open_read(const std::string& path,
                                                     const OpenOptions& options) {
  return counted_open(path, false, [&] { return target().open_read(path, options); });
}

std::unique_ptr<WritableFile> CountingEnv::create(const std::string& path,
                                                  const OpenOptions& options) {
  return counted_open(path, true, [&] { return target().create(path, options); });
}

std::unique_ptr<WritableFile> CountingEnv::open_write(const std::string& path,
                                                      const OpenOptions& options) {
  return counted_open(path, true, [&] { return target().open_write(path, options); });
}

std::unique_ptr<SharedFile> CountingEnv::open_shared(const std::string& path,
                                                     SharedFileOpener& opener) {
  const double t1 = now();
  auto file = target().open_shared(path, opener);
  const double t2 = now();
  Record& counted = record(path);
  counted.open(t1, t2, /*creates=*/true);
  return std::make_unique<CountingSharedFile>(std::move(file), *this, counted);
}

void CountingEnv::rename(const std::string& from, const std::string& to) {
  const double t1 = now();
  target().rename(from, to);
  const double t2 = now();
  record(from).meta(&IoCounts::renames, t1, t2);
  record(to).meta(&IoCounts::rename_targets, 0, 0);  // the time is the source's
}

void CountingEnv::create_directories(const std::string& path) {
  target().create_directories(path);
  add_env_op(&IoCounts::mkdirs);
}

void CountingEnv::remove(const std::string& path) {
  target().remove(path);
  add_env_op(&IoCounts::removes);
}

void CountingEnv::remove_tree(const std::string& path) {
  target().remove_tree(path);
  add_env_op(&IoCounts::tree_removes);
}

std::vector<DirectoryEntry> CountingEnv::list_directory(const std::string& path) {
  std::vector<DirectoryEntry> entries = target().list_directory(path);
  add_env_op(&IoCounts::lists);
  return entries;
}

void CountingEnv::sync_directory(const std::string& path) {
  target().sync_directory(path);
  add_env_op(&IoCounts::directory_syncs);
}

Bytes CountingEnv::free_space(const std::string& path) {
  const Bytes free = target().free_space(path);
  add_env_op(&IoCounts::free_space_queries);
  return free;
}

bool CountingEnv::exists(const std::string& path) {
  const double t1 = now();
  const bool found = target().exists(path);
  // Darshan records a stat only when it succeeds: an absent path gets no record.
  if (found) record(path).meta(&IoCounts::stats, t1, now());
  return found;
}

Bytes CountingEnv::file_size(const std::string& path) {
  const double t1 = now();
  const Bytes size = target().file_size(path);
  record(path).meta(&IoCounts::stats, t1, now());
  return size;
}

}  // namespace dlbench::storage
