#include "storage/counting_env.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <mutex>
#include <string_view>
#include <thread>
#include <utility>

#include "storage/counting_record.h"
#include "storage/distinct_count.h"
#include "storage/recycled.h"
#include "storage/spin_lock.h"

namespace dlbench::storage {

namespace {

using Record = CountingEnv::Record;

class CountingReadableFile final : public ReadableFileWrapper,
                                   public Recycled<CountingReadableFile> {
 public:
  CountingReadableFile(std::unique_ptr<ReadableFile> target, const CountingEnv& env, Record& record)
      : ReadableFileWrapper(std::move(target)), env_(env), record_(record) {}
  ~CountingReadableFile() override {
    const double t = env_.ticks();
    record_.close(t, t);  // the descriptor closes with the wrapped file, just after
  }
  Bytes read_at(Bytes offset, void* buffer, Bytes length) override {
    const double t1 = env_.ticks();
    const Bytes n = ReadableFileWrapper::read_at(offset, buffer, length);
    record_.read(offset, buffer, n, t1, env_.ticks());
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
    const double t = env_.ticks();
    record_.close(t, t);  // the wrapped file's destructor closes it, just after
  }
  void sync() override {
    const double t1 = env_.ticks();
    Wrapper::sync();
    record_.sync(t1, env_.ticks());
  }
  void close() override {
    const double t1 = env_.ticks();
    Wrapper::close();
    counted_close(t1, env_.ticks());
  }

 protected:
  Record& record() const { return record_; }
  // Counts the close of an operation that closed the file between `t1` and `t2`.
  void counted_close(double t1, double t2) {
    closed_ = true;
    record_.close(t1, t2);
  }

  // Times `write()` (which writes `length` bytes at `offset`) and counts it.
  template <class Write>
  void counted_write(Bytes offset, const void* data, Bytes length, Write&& write) {
    const double t1 = env_.ticks();
    write();
    record_.write(offset, data, length, t1, env_.ticks());
  }
  // Times `read()` (which returns the bytes it read at `offset`) and counts it.
  template <class Read>
  Bytes counted_read(Bytes offset, void* data, Read&& read) {
    const double t1 = env_.ticks();
    const Bytes n = read();
    record_.read(offset, data, n, t1, env_.ticks());
    return n;
  }

 private:
  const CountingEnv& env_;
  Record& record_;
  bool closed_ = false;
};

class CountingWritableFile : public CountingWrites<WritableFileWrapper> {
 public:
  using CountingWrites::CountingWrites;
  void write_at(Bytes offset, const void* buffer, Bytes length) override {
    counted_write(offset, buffer, length,
                  [&] { WritableFileWrapper::write_at(offset, buffer, length); });
  }
  void append(const void* buffer, Bytes length) override {
    counted_write(appended(), buffer, length, [&] { WritableFileWrapper::append(buffer, length); });
  }
  // One write of the pieces' total, as Darshan counts a writev; its memory is aligned when
  // every piece is.
  void append_gathered(std::span<const std::span<const std::byte>> pieces) override {
    const void* address = pieces.empty() ? nullptr : pieces.front().data();
    for (const std::span<const std::byte> piece : pieces) {
      if (reinterpret_cast<std::uintptr_t>(piece.data()) % kMemAlignment != 0) {
        address = piece.data();
        break;
      }
    }
    counted_write(appended(), address, GatheredBytes(pieces),
                  [&] { WritableFileWrapper::append_gathered(pieces); });
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

class CountingEnv::PendingFile final : public CountingWritableFile {
 public:
  // `final_path`: where the file is to be published; not kept when the target writes it there.
  PendingFile(std::unique_ptr<WritableFile> target, CountingEnv& env, Record& record,
              const std::string& final_path)
      : CountingWritableFile(std::move(target), env, record), env_(env) {
    if (path() != final_path) final_path_ = final_path;
  }
  ~PendingFile() override {
    if (finished_) return;
    try {
      abandon();  // what the target's destructor would do, counted
    } catch (...) {
    }
  }
  PendingFile(const PendingFile&) = delete;
  PendingFile& operator=(const PendingFile&) = delete;

  void publish() override {
    finished_ = true;
    const bool renames = !final_path_.empty();
    const double t1 = env_.ticks();
    WritableFileWrapper::publish();
    const double t2 = env_.ticks();
    counted_close(t1, t2);
    if (renames) {
      record().meta(Record::Meta::kRename, t1, t2);
      env_.record(final_path_).meta(Record::Meta::kRenameTarget, 0, 0);  // the source's time
    }
  }
  void abandon() override {
    if (finished_) return;
    finished_ = true;
    const bool named = !final_path_.empty();
    const double t1 = env_.ticks();
    WritableFileWrapper::abandon();
    counted_close(t1, env_.ticks());
    if (named) env_.add_env_op(&IoCounts::removes);
  }

 private:
  CountingEnv& env_;
  std::string final_path_;  // empty when the file is written under it (no rename to count)
  bool finished_ = false;
};

CountingEnv::CountingEnv(Env& target, std::chrono::steady_clock::time_point origin, PathHash hash,
                         TickClock::Source clock)
    : EnvWrapper(target), clock_(origin, clock), hash_(hash), id_([] {
        static std::atomic<std::uint64_t> next{1};
        return next.fetch_add(1, std::memory_order_relaxed);
      }()) {}

std::uint64_t CountingEnv::HashPath(std::string_view path) {
  // Eight bytes a step, each word folded in with a multiply, the last (partial) word read as the
  // path's last eight bytes; MurmurHash3's finaliser then carries the few digits in which a
  // dataset's paths differ to the low bits the table indexes by. ~85 instructions with the call
  // for a 45-byte path, where std::hash took ~130 (callgrind).
  constexpr std::uint64_t kMultiplier = 0x9E3779B97F4A7C15ULL;
  const auto word_at = [&](std::size_t at) {
    std::uint64_t word;
    std::memcpy(&word, path.data() + at, sizeof word);
    return word;
  };
  std::uint64_t hash = path.size() * kMultiplier;
  const auto fold = [&](std::uint64_t word) {
    hash = (hash ^ word) * kMultiplier;
    hash ^= hash >> 29;
  };
  if (path.size() >= 8) {
    for (std::size_t at = 0; at + 8 < path.size(); at += 8) fold(word_at(at));
    fold(word_at(path.size() - 8));
  } else {
    std::uint64_t word = 0;
    std::memcpy(&word, path.data(), path.size());
    fold(word);
  }
  hash ^= hash >> 33;
  hash *= 0xFF51AFD7ED558CCDULL;
  hash ^= hash >> 33;
  hash *= 0xC4CEB9FE1A85EC53ULL;
  return hash ^ (hash >> 33);
}

struct CountingEnv::Fold {
  std::string group;
  std::array<std::unique_ptr<Record>, kFoldShards> shards;
  DistinctCount distinct;
};

CountingEnv::~CountingEnv() = default;

std::size_t CountingEnv::RecordCost(std::size_t path_size) {
  return sizeof(Record) + 4 * sizeof(Slot) + (path_size > 112 ? path_size + 1 : 0);
}

void CountingEnv::limit_records(Bytes budget, FoldGroup group) {
  std::lock_guard lock(mutex_);
  budget_ = budget;
  fold_group_ = std::move(group);
}

std::size_t CountingEnv::records() const {
  std::lock_guard lock(mutex_);
  return records_.size();
}

CountingEnv::Record& CountingEnv::fold(const std::string& path, std::uint64_t key) {
  std::string group = fold_group_ ? fold_group_(path) : std::string(kFoldedPath);
  auto it = std::find_if(folds_.begin(), folds_.end(),
                         [&](const auto& fold) { return fold->group == group; });
  if (it == folds_.end()) {
    auto added = std::make_unique<Fold>();
    added->group = std::move(group);
    for (auto& shard : added->shards) shard = std::make_unique<Record>(added->group, true);
    it = folds_.insert(folds_.end(), std::move(added));
  }
  Fold& fold = **it;
  // HashPath's bits are well mixed; a test's colliding hash would fold every path into one.
  fold.distinct.add(HashPath(path));
  return *fold.shards[key % kFoldShards];
}

double CountingEnv::now() const { return clock_.scale().time(clock_.now()); }

CountingEnv::Record* CountingEnv::find(std::uint64_t key) const {
  std::lock_guard lock(mutex_);
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t i = key & mask; !slots_.empty() && slots_[i].record != nullptr;
       i = (i + 1) & mask) {
    if (slots_[i].key != key) continue;
    slots_[i].record->prefetch();
    return slots_[i].record;
  }
  return nullptr;
}

CountingEnv::Record& CountingEnv::record(const std::string& path, std::uint64_t key) {
  std::lock_guard lock(mutex_);
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t i = key & mask; !slots_.empty() && slots_[i].record != nullptr;
       i = (i + 1) & mask) {
    if (slots_[i].key == key && slots_[i].record->path() == path) return *slots_[i].record;
  }
  const std::size_t cost = RecordCost(path.size());
  if (charged_ + cost > budget_) return fold(path, key);
  charged_ += cost;
  Record* added = records_.emplace_back(std::make_unique<Record>(path)).get();
  if (2 * records_.size() > slots_.size()) {  // keep at least half the slots free
    std::vector<Slot> old(std::max<std::size_t>(64, 2 * slots_.size()));
    old.swap(slots_);
    for (const Slot& slot : old) {
      if (slot.record != nullptr) insert(slot.key, slot.record);
    }
  }
  insert(key, added);
  return *added;
}

void CountingEnv::insert(std::uint64_t key, Record* record) {
  const std::size_t mask = slots_.size() - 1;
  std::size_t i = key & mask;
  while (slots_[i].record != nullptr) i = (i + 1) & mask;
  slots_[i] = {key, record};
}

void CountingEnv::add_env_op(std::uint64_t IoCounts::*count) {
  std::lock_guard lock(mutex_);
  ++(env_ops_.*count);
}

IoCounts CountingEnv::counts() const {
  std::lock_guard lock(mutex_);
  IoCounts total = env_ops_;
  const TickClock::Scale scale = clock_.scale();
  for (const auto& record : records_) MergeCounts(total, record->snapshot(scale));
  for (const auto& fold : folds_) {
    for (const auto& shard : fold->shards) MergeCounts(total, shard->snapshot(scale));
  }
  return total;
}

std::vector<FileCounts> CountingEnv::files() const {
  std::lock_guard lock(mutex_);
  const TickClock::Scale scale = clock_.scale();
  // Sorted as pointers, snapshotted in order: a FileCounts is ~0.8 KiB, and sorting the
  // snapshots themselves moved each one ~log2(records) times (60 ms of a run's end at 8 MiB).
  std::vector<const Record*> sorted;
  sorted.reserve(records_.size());
  for (const auto& record : records_) sorted.push_back(record.get());
  std::sort(sorted.begin(), sorted.end(),
            [](const Record* a, const Record* b) { return a->path() < b->path(); });
  std::vector<FileCounts> files;
  files.reserve(sorted.size() + folds_.size());
  for (const Record* record : sorted) {
    files.push_back({std::string(record->path()), 0, record->snapshot(scale)});
  }
  for (const auto& fold : folds_) {
    FileCounts folded{fold->group, 0, fold->shards[0]->snapshot(scale),
                      std::max<std::uint64_t>(1, fold->distinct.estimate())};
    for (std::size_t i = 1; i < kFoldShards; ++i) {
      MergeCounts(folded.counts, fold->shards[i]->snapshot(scale));
    }
    files.push_back(std::move(folded));
  }
  return files;
}

void CountingEnv::reset() {
  std::lock_guard lock(mutex_);
  env_ops_ = {};
  for (auto& record : records_) record->reset();
  for (auto& fold : folds_) {
    for (auto& shard : fold->shards) shard->reset();
    fold->distinct.clear();
  }
}

namespace {

// Per thread: the record of the file it last opened through a CountingEnv, and which wrapper that
// was (by id: a wrapper built where a destroyed one was must not follow the old one's records).
struct LastOpen {
  std::uint64_t env = 0;
  Record* record = nullptr;
};
thread_local LastOpen last_open;

}  // namespace

template <class Open>
auto CountingEnv::counted_open(const std::string& path, bool creates, Open&& open) {
  // Reading a dataset again in the same order (no shuffle, DLIO's default), a thread opens next the
  // file it opened after this one last time: that record's lines were fetched during the previous
  // file's I/O (below), so the path is compared without a cache miss, and there is no hash and no
  // probe of the table, whose line is a miss on nearly every open of a dataset that streams
  // through the cache (perf: ~2 % of a 4 KiB npy sample's CPU). Any other order pays one
  // comparison that fails, then looks the record up.
  LastOpen& last = last_open;
  Record* const previous = last.env == id_ ? last.record : nullptr;
  Record* const predicted = previous != nullptr ? previous->next() : nullptr;
  const bool as_predicted = predicted != nullptr && predicted->path() == path;
  const std::uint64_t key = as_predicted ? 0 : hash_(path);
  Record* const known = as_predicted ? predicted : find(key);  // lines arrive while it opens
  const double t1 = ticks();
  auto file = open();
  const double t2 = ticks();
  Record& counted =
      as_predicted || (known != nullptr && known->path() == path) ? *known : record(path, key);
  // A folded record is shared by many files: no prediction leads to it or from it.
  if (previous != nullptr && predicted != &counted && !previous->folded() && !counted.folded()) {
    previous->set_next(&counted);
  }
  last = {id_, &counted};
  counted.open(t1, t2, creates);
  if (const Record* next = counted.next()) next->prefetch();  // during this file's reads
  using Counting = std::conditional_t<std::is_same_v<decltype(file), std::unique_ptr<ReadableFile>>,
                                      CountingReadableFile, CountingWritableFile>;
  return std::make_unique<Counting>(std::move(file), *this, counted);
}

std::unique_ptr<ReadableFile> CountingEnv::open_read(const std::string& path,
                                                     const OpenOptions& options) {
  return counted_open(path, false, [&] { return target().open_read(path, options); });
}

std::unique_ptr<ReadableFile> CountingEnv::open_mapped(const std::string& path) {
  return counted_open(path, false, [&] { return target().open_mapped(path); });
}

std::unique_ptr<WritableFile> CountingEnv::create(const std::string& path,
                                                  const OpenOptions& options) {
  return counted_open(path, true, [&] { return target().create(path, options); });
}

std::unique_ptr<WritableFile> CountingEnv::create_for_publish(const std::string& path,
                                                              const PublishOptions& options) {
  const double t1 = ticks();
  auto file = target().create_for_publish(path, options);
  const double t2 = ticks();
  Record& counted = record(file->path());
  counted.open(t1, t2, /*creates=*/true);
  return std::make_unique<PendingFile>(std::move(file), *this, counted, path);
}

std::unique_ptr<WritableFile> CountingEnv::open_write(const std::string& path,
                                                      const OpenOptions& options) {
  return counted_open(path, true, [&] { return target().open_write(path, options); });
}

std::unique_ptr<SharedFile> CountingEnv::open_shared(const std::string& path,
                                                     SharedFileOpener& opener) {
  const double t1 = ticks();
  auto file = target().open_shared(path, opener);
  const double t2 = ticks();
  Record& counted = record(path);
  counted.open(t1, t2, /*creates=*/true);
  return std::make_unique<CountingSharedFile>(std::move(file), *this, counted);
}

void CountingEnv::rename(const std::string& from, const std::string& to) {
  const double t1 = ticks();
  target().rename(from, to);
  const double t2 = ticks();
  record(from).meta(Record::Meta::kRename, t1, t2);
  record(to).meta(Record::Meta::kRenameTarget, 0, 0);  // the time is the source's
}

void CountingEnv::create_directories(const std::string& path) {
  target().create_directories(path);
  add_env_op(&IoCounts::mkdirs);
}

void CountingEnv::remove(const std::string& path) {
  target().remove(path);
  add_env_op(&IoCounts::removes);
}

void CountingEnv::remove_files(const std::vector<std::string>& paths) {
  target().remove_files(paths);
  for (std::size_t i = 0; i < paths.size(); ++i) add_env_op(&IoCounts::removes);
}

void CountingEnv::remove_tree(const std::string& path) {
  target().remove_tree(path);
  add_env_op(&IoCounts::tree_removes);
}

void CountingEnv::for_each_entry(const std::string& path, const EntryVisitor& visit) {
  target().for_each_entry(path, visit);
  add_env_op(&IoCounts::lists);
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
  const double t1 = ticks();
  const bool found = target().exists(path);
  // Darshan records a stat only when it succeeds: an absent path gets no record.
  if (found) record(path).meta(Record::Meta::kStat, t1, ticks());
  return found;
}

Bytes CountingEnv::file_size(const std::string& path) {
  const double t1 = ticks();
  const Bytes size = target().file_size(path);
  record(path).meta(Record::Meta::kStat, t1, ticks());
  return size;
}

std::int64_t CountingEnv::modified_ns(const std::string& path) {
  const double t1 = ticks();
  const std::int64_t time = target().modified_ns(path);
  record(path).meta(Record::Meta::kStat, t1, ticks());
  return time;
}

}  // namespace dlbench::storage
