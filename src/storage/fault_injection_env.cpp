#include "storage/fault_injection_env.h"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

#include "storage/atomic_file.h"
#include "storage/posix_file.h"
#include "util/error.h"
#include "util/sink.h"

namespace dlbench::storage {
namespace {

// The error of a write cut short: the first `written` bytes are on storage, the rest are not.
Error ShortWriteError(const std::string& path, Bytes offset, Bytes length, Bytes written) {
  return IoError("write", path, ENOSPC,
                 OffsetDetail(offset, length) + ": short write, " + std::to_string(written) +
                     " of " + std::to_string(length) + " bytes written (injected fault)");
}

class FaultyReadableFile final : public ReadableFileWrapper {
 public:
  FaultyReadableFile(std::unique_ptr<ReadableFile> target, FaultInjectionEnv& env)
      : ReadableFileWrapper(std::move(target)), env_(env) {}
  Bytes read_at(Bytes offset, void* buffer, Bytes length) override {
    const Transfer how = env_.check(FaultOp::kRead, path(), OffsetDetail(offset, length));
    if (how == Transfer::kShort) length /= 2;
    std::optional<ScopedInterruption> interruption;
    if (how == Transfer::kInterrupted) interruption.emplace();
    return ReadableFileWrapper::read_at(offset, buffer, length);
  }

 private:
  FaultInjectionEnv& env_;
};

class FaultyWritableFile final : public WritableFileWrapper {
 public:
  // `final_path`: where a file created for publishing is to appear (empty for other files).
  FaultyWritableFile(std::unique_ptr<WritableFile> target, FaultInjectionEnv& env,
                     std::string final_path = {})
      : WritableFileWrapper(std::move(target)), env_(env), final_path_(std::move(final_path)) {}
  void write_at(Bytes offset, const void* buffer, Bytes length) override {
    const Transfer how = env_.check(FaultOp::kWrite, path(), OffsetDetail(offset, length));
    if (how == Transfer::kShort) {
      WritableFileWrapper::write_at(offset, buffer, length / 2);
      throw ShortWriteError(path(), offset, length, length / 2);
    }
    std::optional<ScopedInterruption> interruption;
    if (how == Transfer::kInterrupted) interruption.emplace();
    WritableFileWrapper::write_at(offset, buffer, length);
  }
  void append(const void* buffer, Bytes length) override {
    const Bytes offset = appended();
    const Transfer how = env_.check(FaultOp::kWrite, path(), OffsetDetail(offset, length));
    if (how == Transfer::kShort) {
      WritableFileWrapper::append(buffer, length / 2);
      throw ShortWriteError(path(), offset, length, length / 2);
    }
    std::optional<ScopedInterruption> interruption;
    if (how == Transfer::kInterrupted) interruption.emplace();
    WritableFileWrapper::append(buffer, length);
  }
  // A gathered write fails as one write: cut short, its first half of the bytes is written.
  void append_gathered(std::span<const std::span<const std::byte>> pieces) override {
    const Bytes offset = appended();
    const Bytes length = GatheredBytes(pieces);
    const Transfer how = env_.check(FaultOp::kWrite, path(), OffsetDetail(offset, length));
    if (how == Transfer::kShort) {
      std::vector<std::span<const std::byte>> half;
      for (Bytes left = length / 2; const std::span<const std::byte> piece : pieces) {
        if (left == 0) break;
        half.push_back(piece.first(std::min<Bytes>(left, piece.size())));
        left -= half.back().size();
      }
      WritableFileWrapper::append_gathered(half);
      throw ShortWriteError(path(), offset, length, length / 2);
    }
    std::optional<ScopedInterruption> interruption;
    if (how == Transfer::kInterrupted) interruption.emplace();
    WritableFileWrapper::append_gathered(pieces);
  }
  void truncate(Bytes size) override {
    env_.check(FaultOp::kTruncate, path(), "to " + std::to_string(size));
    WritableFileWrapper::truncate(size);
  }
  void sync() override {
    env_.check(FaultOp::kSync, path(), "");
    WritableFileWrapper::sync();
  }
  void close() override {
    if (closed_) return;
    closed_ = true;
    // The descriptor is released even when the close "fails", as with close(2).
    try {
      env_.check(FaultOp::kClose, path(), "");
    } catch (...) {
      try {
        WritableFileWrapper::close();
      } catch (...) {
      }
      throw;
    }
    WritableFileWrapper::close();
  }
  void publish() override {
    if (!final_path_.empty()) {
      closed_ = true;
      try {
        env_.check(FaultOp::kClose, path(), "");
        env_.check(FaultOp::kRename, path(), "", final_path_);
      } catch (...) {
        discard();
        throw;
      }
    }
    WritableFileWrapper::publish();
  }
  void abandon() override {
    if (!final_path_.empty()) {
      closed_ = true;
      try {
        env_.check(FaultOp::kRemove, path(), "");
      } catch (...) {
        discard();
        throw;
      }
    }
    WritableFileWrapper::abandon();
  }

 private:
  // Abandons the target after an injected failure of publish or abandon; its errors swallowed.
  void discard() noexcept {
    try {
      WritableFileWrapper::abandon();
    } catch (...) {
    }
  }

  FaultInjectionEnv& env_;
  std::string final_path_;
  bool closed_ = false;
};

// Shared files fail like writable ones: kWrite for both writes, kRead, kSync, kClose (which still
// closes, collectively, so that the other processes are not left waiting in it). set_size and
// size() are not failed. A write cut short still makes its (collective) call, with half the bytes.
// Their bytes are MPI-IO's, not the POSIX Env's: kInterrupt does nothing to them.
class FaultySharedFile final : public SharedFileWrapper {
 public:
  FaultySharedFile(std::unique_ptr<SharedFile> target, FaultInjectionEnv& env)
      : SharedFileWrapper(std::move(target)), env_(env) {}
  void write_at_all(Bytes offset, const void* data, Bytes length) override {
    if (env_.check(FaultOp::kWrite, path(), OffsetDetail(offset, length)) == Transfer::kShort) {
      SharedFileWrapper::write_at_all(offset, data, length / 2);
      throw ShortWriteError(path(), offset, length, length / 2);
    }
    SharedFileWrapper::write_at_all(offset, data, length);
  }
  void write_at(Bytes offset, const void* data, Bytes length) override {
    if (env_.check(FaultOp::kWrite, path(), OffsetDetail(offset, length)) == Transfer::kShort) {
      SharedFileWrapper::write_at(offset, data, length / 2);
      throw ShortWriteError(path(), offset, length, length / 2);
    }
    SharedFileWrapper::write_at(offset, data, length);
  }
  Bytes read_at(Bytes offset, void* data, Bytes length) override {
    if (env_.check(FaultOp::kRead, path(), OffsetDetail(offset, length)) == Transfer::kShort) {
      length /= 2;
    }
    return SharedFileWrapper::read_at(offset, data, length);
  }
  Bytes read_at_all(Bytes offset, void* data, Bytes length) override {
    if (env_.check(FaultOp::kRead, path(), OffsetDetail(offset, length)) == Transfer::kShort) {
      length /= 2;
    }
    return SharedFileWrapper::read_at_all(offset, data, length);
  }
  void sync() override {
    env_.check(FaultOp::kSync, path(), "");
    SharedFileWrapper::sync();
  }
  void close() override {
    try {
      env_.check(FaultOp::kClose, path(), "");
    } catch (...) {
      SharedFileWrapper::close();
      throw;
    }
    SharedFileWrapper::close();
  }

 private:
  FaultInjectionEnv& env_;
};

}  // namespace

const char* ToString(FaultOp op) {
  switch (op) {
    case FaultOp::kOpenRead:
      return "open for reading";
    case FaultOp::kCreate:
      return "create";
    case FaultOp::kOpenWrite:
      return "open for writing";
    case FaultOp::kRead:
      return "read";
    case FaultOp::kWrite:
      return "write";
    case FaultOp::kSync:
      return "fsync";
    case FaultOp::kClose:
      return "close";
    case FaultOp::kRename:
      return "rename";
    case FaultOp::kCreateDirectories:
      return "mkdir";
    case FaultOp::kRemove:
      return "remove";
    case FaultOp::kSyncDirectory:
      return "fsync directory";
    case FaultOp::kRemoveTree:
      return "remove tree";
    case FaultOp::kListDirectory:
      return "list";
    case FaultOp::kFreeSpace:
      return "statvfs";
    case FaultOp::kTruncate:
      return "truncate";
  }
  return "?";
}

void FaultInjectionEnv::inject(Fault fault) {
  std::lock_guard lock(mutex_);
  rules_.push_back(Rule{std::move(fault)});
}

void FaultInjectionEnv::clear() {
  std::lock_guard lock(mutex_);
  rules_.clear();
}

std::uint64_t FaultInjectionEnv::injected() const {
  std::lock_guard lock(mutex_);
  return injected_;
}

std::uint64_t FaultInjectionEnv::attempts(FaultOp op) const {
  std::lock_guard lock(mutex_);
  return attempts_[static_cast<std::size_t>(op)];
}

std::uint64_t FaultInjectionEnv::operations() const {
  std::lock_guard lock(mutex_);
  std::uint64_t total = 0;
  for (std::uint64_t n : attempts_) total += n;
  return total;
}

Transfer FaultInjectionEnv::check(FaultOp op, const std::string& path, const std::string& detail,
                                  const std::string& other_path) {
  std::optional<Fault> hit;  // a copy: inject() may move the rules once the lock is released
  {
    std::lock_guard lock(mutex_);
    ++attempts_[static_cast<std::size_t>(op)];
    for (Rule& rule : rules_) {
      const Fault& f = rule.fault;
      if (!f.any_operation && f.op != op) continue;
      const bool matches =
          f.path_contains.empty() || path.find(f.path_contains) != std::string::npos ||
          (!other_path.empty() && other_path.find(f.path_contains) != std::string::npos);
      if (!matches) continue;
      ++rule.seen;
      if (rule.seen == f.nth_match || (f.keeps_failing && rule.seen > f.nth_match)) {
        hit = f;
        ++injected_;
        break;
      }
    }
  }
  if (!hit) return Transfer::kWhole;
  if (announce_) {
    sink::Note("fault injected (DLBENCH_FAULTS): " + std::string(ToString(op)) + " " + path +
               (other_path.empty() ? "" : " to " + other_path) +
               (detail.empty() ? "" : ", " + detail));
  }
  const bool transfer = op == FaultOp::kRead || op == FaultOp::kWrite;
  switch (hit->action) {
    case FaultAction::kError:
      break;
    case FaultAction::kShort:
      // Only reads and writes can be cut short; any other operation fails as a full disk would.
      if (transfer) return Transfer::kShort;
      break;
    case FaultAction::kInterrupt:
      return transfer ? Transfer::kInterrupted : Transfer::kWhole;
    case FaultAction::kSlow:
      std::this_thread::sleep_for(std::chrono::duration<double>(hit->delay));
      return Transfer::kWhole;
    case FaultAction::kKill:
      std::raise(SIGKILL);
      break;
  }
  const int error = hit->action == FaultAction::kShort ? ENOSPC : hit->error_value;
  std::string message = other_path.empty() ? "" : "to " + other_path + " ";
  if (!detail.empty()) message += detail + " ";
  message += "(injected fault)";
  throw IoError(ToString(op), path, error, message);
}

std::unique_ptr<ReadableFile> FaultInjectionEnv::open_read(const std::string& path,
                                                           const OpenOptions& options) {
  check(FaultOp::kOpenRead, path, "");
  return std::make_unique<FaultyReadableFile>(target().open_read(path, options), *this);
}

std::unique_ptr<ReadableFile> FaultInjectionEnv::open_mapped(const std::string& path) {
  check(FaultOp::kOpenRead, path, "");
  return std::make_unique<FaultyReadableFile>(target().open_mapped(path), *this);
}

std::unique_ptr<WritableFile> FaultInjectionEnv::create(const std::string& path,
                                                        const OpenOptions& options) {
  check(FaultOp::kCreate, path, "");
  return std::make_unique<FaultyWritableFile>(target().create(path, options), *this);
}

std::unique_ptr<WritableFile> FaultInjectionEnv::create_for_publish(const std::string& path,
                                                                    const PublishOptions& options) {
  // Matched against the name PosixEnv writes it under: the partial one when asked for a name
  // (partial_name, reuse) or for O_DIRECT, which needs one; else the final one.
  const bool partial = options.partial_name || options.reuse || options.direct;
  check(FaultOp::kCreate, partial ? PartialPathFor(path) : path, "");
  return std::make_unique<FaultyWritableFile>(target().create_for_publish(path, options), *this,
                                              path);
}

std::unique_ptr<WritableFile> FaultInjectionEnv::open_write(const std::string& path,
                                                            const OpenOptions& options) {
  check(FaultOp::kOpenWrite, path, "");
  return std::make_unique<FaultyWritableFile>(target().open_write(path, options), *this);
}

std::unique_ptr<SharedFile> FaultInjectionEnv::open_shared(const std::string& path,
                                                           SharedFileOpener& opener) {
  check(FaultOp::kOpenWrite, path, "");
  return std::make_unique<FaultySharedFile>(target().open_shared(path, opener), *this);
}

void FaultInjectionEnv::rename(const std::string& from, const std::string& to) {
  check(FaultOp::kRename, from, "", to);
  target().rename(from, to);
}

void FaultInjectionEnv::create_directories(const std::string& path) {
  check(FaultOp::kCreateDirectories, path, "");
  target().create_directories(path);
}

void FaultInjectionEnv::remove(const std::string& path) {
  check(FaultOp::kRemove, path, "");
  target().remove(path);
}

void FaultInjectionEnv::remove_files(const std::vector<std::string>& paths) {
  for (const std::string& path : paths) check(FaultOp::kRemove, path, "");
  target().remove_files(paths);
}

void FaultInjectionEnv::sync_directory(const std::string& path) {
  check(FaultOp::kSyncDirectory, path, "");
  target().sync_directory(path);
}

void FaultInjectionEnv::remove_tree(const std::string& path) {
  check(FaultOp::kRemoveTree, path, "");
  target().remove_tree(path);
}

void FaultInjectionEnv::for_each_entry(const std::string& path, const EntryVisitor& visit) {
  check(FaultOp::kListDirectory, path, "");
  target().for_each_entry(path, visit);
}

Bytes FaultInjectionEnv::free_space(const std::string& path) {
  check(FaultOp::kFreeSpace, path, "");
  return target().free_space(path);
}

}  // namespace dlbench::storage
