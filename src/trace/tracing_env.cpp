#include "trace/tracing_env.h"

#include <type_traits>
#include <utility>

#include "trace/record.h"
#include "trace/recorder.h"

namespace dlbench::trace {
namespace {

// Whether operations on `path` are recorded now (a recorder is active, its filter and sampling
// keep the path); `hash` is the path's HashPath.
bool Traced(const std::string& path, std::uint64_t hash) {
  const Recorder* r = Active();
  return r != nullptr && r->traces_path(path) && r->sampled(hash);
}

// Runs `op`, recording `event` around it: ret = `ret_of(result)` (or -1 when it throws).
template <typename Op, typename RetOf>
auto Timed(Event event, std::uint64_t hash, std::string_view path, std::int64_t size,
           std::int64_t offset, const Op& op, const RetOf& ret_of) {
  const std::int64_t start = NowNs();
  try {
    if constexpr (std::is_void_v<decltype(op())>) {
      op();
      Record(event, start, NowNs(), {ret_of(), size, offset}, hash, path);
    } else {
      auto result = op();
      Record(event, start, NowNs(), {ret_of(result), size, offset}, hash, path);
      return result;
    }
  } catch (...) {
    Record(event, start, NowNs(), {-1, size, offset}, hash, path);
    throw;
  }
}

constexpr auto kZero = [](auto&&...) -> std::int64_t { return 0; };
constexpr auto kAsInt = [](auto value) { return static_cast<std::int64_t>(value); };

class TracingReadableFile final : public storage::ReadableFileWrapper {
 public:
  TracingReadableFile(std::unique_ptr<storage::ReadableFile> target, std::uint64_t hash)
      : ReadableFileWrapper(std::move(target)), hash_(hash) {}
  ~TracingReadableFile() override {
    // The target closes its descriptor in its destructor, after this one: time the close by
    // destroying it here. Bytes: the file's position is not known; 0.
    const std::int64_t start = NowNs();
    close_target();
    Record(Event::kClose, start, NowNs(), {0, 0, 0}, hash_);
  }
  TracingReadableFile(const TracingReadableFile&) = delete;
  TracingReadableFile& operator=(const TracingReadableFile&) = delete;

  Bytes read_at(Bytes offset, void* buffer, Bytes length) override {
    return Timed(
        Event::kRead, hash_, {}, kAsInt(length), kAsInt(offset),
        [&] { return target().read_at(offset, buffer, length); }, kAsInt);
  }
  void drop_cache() override {
    Timed(
        Event::kFadvise, hash_, {}, 0, 0, [&] { target().drop_cache(); }, kZero);
  }

 private:
  std::uint64_t hash_;
};

// What every written file (one process's or a shared one) records alike: a write's event, its
// sync and its close.
template <class Wrapper>
class TracingWrites : public Wrapper {
 public:
  template <class Target>
  TracingWrites(std::unique_ptr<Target> target, std::uint64_t hash)
      : Wrapper(std::move(target)), hash_(hash) {}

  void sync() override {
    event(Event::kFsync, [&] { this->target().sync(); });
  }
  void close() override {
    event(Event::kClose, [&] { this->target().close(); });
  }

 protected:
  // Records `write()`, which writes `length` bytes at `offset`, as `what`.
  template <class Write>
  void write_event(Event what, Bytes offset, Bytes length, const Write& write) {
    Timed(what, hash_, {}, kAsInt(length), kAsInt(offset), write, [&] { return kAsInt(length); });
  }
  // Records `op`, which moves no bytes, as `what`.
  template <class Op>
  void event(Event what, const Op& op) {
    Timed(what, hash_, {}, 0, 0, op, kZero);
  }
  std::uint64_t hash() const { return hash_; }

 private:
  std::uint64_t hash_;
};

class TracingWritableFile final : public TracingWrites<storage::WritableFileWrapper> {
 public:
  using TracingWrites::TracingWrites;

  void write_at(Bytes offset, const void* buffer, Bytes length) override {
    write_event(Event::kWrite, offset, length, [&] { target().write_at(offset, buffer, length); });
  }
  void append(const void* buffer, Bytes length) override {
    write_event(Event::kAppend, target().appended(), length,
                [&] { target().append(buffer, length); });
  }
  // One append event of the pieces' total.
  void append_gathered(std::span<const std::span<const std::byte>> pieces) override {
    write_event(Event::kAppend, target().appended(), storage::GatheredBytes(pieces),
                [&] { target().append_gathered(pieces); });
  }
  void publish() override {
    event(Event::kRename, [&] { target().publish(); });
  }
  void abandon() override {
    event(Event::kUnlink, [&] { target().abandon(); });
  }
};

class TracingSharedFile final : public TracingWrites<storage::SharedFileWrapper> {
 public:
  using TracingWrites::TracingWrites;

  void write_at_all(Bytes offset, const void* data, Bytes length) override {
    write_event(Event::kWrite, offset, length,
                [&] { target().write_at_all(offset, data, length); });
  }
  void write_at(Bytes offset, const void* data, Bytes length) override {
    write_event(Event::kWrite, offset, length, [&] { target().write_at(offset, data, length); });
  }
  Bytes read_at(Bytes offset, void* data, Bytes length) override {
    return Timed(
        Event::kRead, hash(), {}, kAsInt(length), kAsInt(offset),
        [&] { return target().read_at(offset, data, length); }, kAsInt);
  }
  Bytes read_at_all(Bytes offset, void* data, Bytes length) override {
    return Timed(
        Event::kRead, hash(), {}, kAsInt(length), kAsInt(offset),
        [&] { return target().read_at_all(offset, data, length); }, kAsInt);
  }
};

// Wraps a file opened by `open` when its path is traced, recording the open itself.
template <typename File, typename Open>
auto OpenTraced(Event event, const std::string& path, const Open& open) {
  const std::uint64_t hash = HashPath(path);
  if (!Traced(path, hash)) return open();
  auto file = Timed(event, hash, path, 0, 0, open, kZero);
  return decltype(file)(std::make_unique<File>(std::move(file), hash));
}

// An Env-level operation on `path`.
template <typename Op, typename RetOf = decltype(kZero)>
auto PathOp(Event event, const std::string& path, const Op& op, const RetOf& ret_of = kZero) {
  const std::uint64_t hash = HashPath(path);
  if (!Traced(path, hash)) return op();
  return Timed(event, hash, path, 0, 0, op, ret_of);
}

}  // namespace

std::unique_ptr<storage::ReadableFile> TracingEnv::open_read(const std::string& path,
                                                             const storage::OpenOptions& options) {
  return OpenTraced<TracingReadableFile>(Event::kOpen, path,
                                         [&] { return target().open_read(path, options); });
}

std::unique_ptr<storage::ReadableFile> TracingEnv::open_mapped(const std::string& path) {
  return OpenTraced<TracingReadableFile>(Event::kOpen, path,
                                         [&] { return target().open_mapped(path); });
}

std::unique_ptr<storage::WritableFile> TracingEnv::create(const std::string& path,
                                                          const storage::OpenOptions& options) {
  return OpenTraced<TracingWritableFile>(Event::kCreate, path,
                                         [&] { return target().create(path, options); });
}

std::unique_ptr<storage::WritableFile> TracingEnv::create_for_publish(
    const std::string& path, const storage::PublishOptions& options) {
  return OpenTraced<TracingWritableFile>(
      Event::kCreate, path, [&] { return target().create_for_publish(path, options); });
}

std::unique_ptr<storage::SharedFile> TracingEnv::open_shared(const std::string& path,
                                                             storage::SharedFileOpener& opener) {
  return OpenTraced<TracingSharedFile>(Event::kOpenWrite, path,
                                       [&] { return target().open_shared(path, opener); });
}

std::unique_ptr<storage::WritableFile> TracingEnv::open_write(const std::string& path,
                                                              const storage::OpenOptions& options) {
  return OpenTraced<TracingWritableFile>(Event::kOpenWrite, path,
                                         [&] { return target().open_write(path, options); });
}

void TracingEnv::rename(const std::string& from, const std::string& to) {
  // Recorded on the target path (`from` no longer exists afterwards).
  PathOp(Event::kRename, to, [&] { target().rename(from, to); });
}

void TracingEnv::create_directories(const std::string& path) {
  PathOp(Event::kMkdir, path, [&] { target().create_directories(path); });
}

void TracingEnv::remove(const std::string& path) {
  PathOp(Event::kUnlink, path, [&] { target().remove(path); });
}

void TracingEnv::remove_files(const std::vector<std::string>& paths) {
  if (paths.empty()) return;
  PathOp(
      Event::kUnlink, paths.front(),
      [&] {
        target().remove_files(paths);
        return kAsInt(paths.size());
      },
      [](std::int64_t removed) { return removed; });
}

void TracingEnv::remove_tree(const std::string& path) {
  PathOp(Event::kRemoveTree, path, [&] { target().remove_tree(path); });
}

void TracingEnv::for_each_entry(const std::string& path, const EntryVisitor& visit) {
  PathOp(
      Event::kOpendir, path,
      [&] {
        std::int64_t visited = 0;
        target().for_each_entry(path, [&](const storage::DirectoryEntry& entry) {
          ++visited;
          return visit(entry);
        });
        return visited;
      },
      [](std::int64_t visited) { return visited; });
}

bool TracingEnv::exists(const std::string& path) {
  return PathOp(
      Event::kStat, path, [&] { return target().exists(path); },
      [](bool found) { return std::int64_t{found ? 0 : -1}; });
}

Bytes TracingEnv::file_size(const std::string& path) {
  return PathOp(
      Event::kStat, path, [&] { return target().file_size(path); }, kAsInt);
}

std::int64_t TracingEnv::modified_ns(const std::string& path) {
  return PathOp(
      Event::kStat, path, [&] { return target().modified_ns(path); }, kAsInt);
}

void TracingEnv::sync_directory(const std::string& path) {
  PathOp(Event::kFsync, path, [&] { target().sync_directory(path); });
}

Bytes TracingEnv::free_space(const std::string& path) {
  return PathOp(
      Event::kStatvfs, path, [&] { return target().free_space(path); },
      [](Bytes) { return std::int64_t{0}; });
}

}  // namespace dlbench::trace
