#include "support/memory_object_env.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <limits>
#include <utility>

#include "util/error.h"

namespace dlbench::test {
namespace {

// "a/b/" for "a/b" and "a/b/": what the keys under a folder start with.
std::string PrefixOf(const std::string& folder) {
  return folder.ends_with('/') ? folder : folder + "/";
}

class ObjectReader final : public storage::ReadableFile {
 public:
  ObjectReader(std::string path, std::shared_ptr<const std::string> bytes)
      : path_(std::move(path)), bytes_(std::move(bytes)) {}
  const std::string& path() const override { return path_; }
  Bytes size() const override { return bytes_->size(); }
  Bytes read_at(Bytes offset, void* buffer, Bytes length) override {
    if (offset >= bytes_->size()) return 0;
    const Bytes n = std::min<Bytes>(length, bytes_->size() - offset);
    std::memcpy(buffer, bytes_->data() + offset, n);
    return n;
  }
  void drop_cache() override {}

 private:
  std::string path_;
  std::shared_ptr<const std::string> bytes_;
};

// An object being written: its bytes appear under `path` at close() (create) or publish()
// (create_for_publish), whole.
class ObjectWriter final : public storage::WritableFile {
 public:
  ObjectWriter(MemoryObjectEnv& env, std::string path, bool for_publishing)
      : env_(env), path_(std::move(path)), for_publishing_(for_publishing) {}
  const std::string& path() const override { return path_; }
  void write_at(Bytes /*offset*/, const void* /*buffer*/, Bytes /*length*/) override {
    env_.refuse("write at an offset", path_);
  }
  void append(const void* buffer, Bytes length) override {
    require_open("write");
    bytes_.append(static_cast<const char*>(buffer), length);
  }
  Bytes appended() const override { return bytes_.size(); }
  void truncate(Bytes /*size*/) override { env_.refuse("truncate", path_); }
  void sync() override { require_open("fsync"); }
  void close() override {
    if (finished_) return;
    finished_ = true;
    if (!for_publishing_) env_.put(path_, std::move(bytes_));
  }
  void publish() override {
    if (!for_publishing_) {
      throw IoError("publish", path_, EINVAL, "the file was not created for publishing");
    }
    require_open("publish");
    finished_ = true;
    env_.put(path_, std::move(bytes_));
  }
  void abandon() override {
    if (!for_publishing_) {
      throw IoError("abandon", path_, EINVAL, "the file was not created for publishing");
    }
    finished_ = true;
    bytes_.clear();
  }

 private:
  void require_open(const char* operation) const {
    if (finished_) throw IoError(operation, path_, EBADF, "file closed");
  }

  MemoryObjectEnv& env_;
  std::string path_;
  bool for_publishing_;
  bool finished_ = false;
  std::string bytes_;
};

}  // namespace

std::vector<std::string> MemoryObjectEnv::keys() const {
  const std::lock_guard lock(mutex_);
  std::vector<std::string> keys;
  for (const auto& [key, object] : objects_) keys.push_back(key);
  return keys;
}

std::string MemoryObjectEnv::object(const std::string& key) const {
  const std::lock_guard lock(mutex_);
  const auto it = objects_.find(key);
  if (it == objects_.end()) throw IoError("get", key, ENOENT);
  return *it->second.bytes;
}

std::uint64_t MemoryObjectEnv::refused() const {
  const std::lock_guard lock(mutex_);
  return refused_;
}

void MemoryObjectEnv::put(const std::string& key, std::string bytes) {
  auto shared = std::make_shared<const std::string>(std::move(bytes));
  const std::lock_guard lock(mutex_);
  const auto now =
      static_cast<std::int64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                    std::chrono::system_clock::now().time_since_epoch())
                                    .count());
  last_modified_ = std::max(now, last_modified_ + 1);
  objects_[key] = {std::move(shared), last_modified_};
}

void MemoryObjectEnv::refuse(const std::string& operation, const std::string& path) {
  {
    const std::lock_guard lock(mutex_);
    ++refused_;
  }
  throw IoError(operation, path, EOPNOTSUPP, "an object store cannot do this");
}

storage::Capabilities MemoryObjectEnv::capabilities(const std::string& /*path*/) {
  return storage::Capabilities::ObjectStore("memory object store");
}

std::unique_ptr<storage::ReadableFile> MemoryObjectEnv::open_read(
    const std::string& path, const storage::OpenOptions& options) {
  if (options.direct) refuse("open (O_DIRECT)", path);
  const std::lock_guard lock(mutex_);
  const auto it = objects_.find(path);
  if (it == objects_.end()) throw IoError("open for reading", path, ENOENT);
  return std::make_unique<ObjectReader>(path, it->second.bytes);
}

std::unique_ptr<storage::WritableFile> MemoryObjectEnv::create(
    const std::string& path, const storage::OpenOptions& options) {
  if (options.direct) refuse("open (O_DIRECT)", path);
  return std::make_unique<ObjectWriter>(*this, path, /*for_publishing=*/false);
}

std::unique_ptr<storage::WritableFile> MemoryObjectEnv::create_for_publish(
    const std::string& path, const storage::PublishOptions& options) {
  if (options.direct) refuse("open (O_DIRECT)", path);
  if (options.reuse) refuse("reuse an earlier copy", path);
  return std::make_unique<ObjectWriter>(*this, path, /*for_publishing=*/true);
}

std::unique_ptr<storage::WritableFile> MemoryObjectEnv::open_write(
    const std::string& path, const storage::OpenOptions& /*options*/) {
  refuse("open for writing in place", path);
}

std::unique_ptr<storage::SharedFile> MemoryObjectEnv::open_shared(
    const std::string& path, storage::SharedFileOpener& /*opener*/) {
  refuse("open for several writers", path);
}

void MemoryObjectEnv::rename(const std::string& from, const std::string& /*to*/) {
  refuse("rename", from);
}

void MemoryObjectEnv::create_directories(const std::string& /*path*/) {}

void MemoryObjectEnv::remove(const std::string& path) {
  const std::lock_guard lock(mutex_);
  if (objects_.erase(path) > 0) return;
  const std::string prefix = PrefixOf(path);
  const auto under = objects_.lower_bound(prefix);
  if (under != objects_.end() && under->first.starts_with(prefix)) {
    throw IoError("remove", path, ENOTEMPTY);
  }
}

void MemoryObjectEnv::remove_tree(const std::string& path) {
  const std::lock_guard lock(mutex_);
  objects_.erase(path);
  const std::string prefix = PrefixOf(path);
  auto it = objects_.lower_bound(prefix);
  while (it != objects_.end() && it->first.starts_with(prefix)) it = objects_.erase(it);
}

void MemoryObjectEnv::for_each_entry(const std::string& path, const EntryVisitor& visit) {
  std::unique_lock lock(mutex_);
  const std::string prefix = PrefixOf(path);
  std::map<std::string, storage::DirectoryEntry> names;  // objects, and common prefixes (folders)
  for (auto it = objects_.lower_bound(prefix);
       it != objects_.end() && it->first.starts_with(prefix); ++it) {
    const std::string rest = it->first.substr(prefix.size());
    const std::size_t slash = rest.find('/');
    if (slash == 0) continue;  // "a//b": no name between the delimiters
    storage::DirectoryEntry& entry = names[rest.substr(0, slash)];
    entry.name = rest.substr(0, slash);
    if (slash != std::string::npos) {
      entry.is_directory = true;
    } else {
      entry.size = it->second.bytes->size();  // a listing gives each object's size
    }
  }
  lock.unlock();  // `visit` may call this Env
  for (auto& [name, entry] : names) {
    if (entry.is_directory) entry.size.reset();  // "a" and "a/b": the folder
    if (!visit(entry)) return;
  }
}

bool MemoryObjectEnv::exists(const std::string& path) {
  const std::lock_guard lock(mutex_);
  if (objects_.contains(path)) return true;
  const std::string prefix = PrefixOf(path);
  const auto under = objects_.lower_bound(prefix);
  return under != objects_.end() && under->first.starts_with(prefix);
}

Bytes MemoryObjectEnv::file_size(const std::string& path) {
  const std::lock_guard lock(mutex_);
  const auto it = objects_.find(path);
  if (it == objects_.end()) throw IoError("stat", path, ENOENT);
  return it->second.bytes->size();
}

std::int64_t MemoryObjectEnv::modified_ns(const std::string& path) {
  const std::lock_guard lock(mutex_);
  const auto it = objects_.find(path);
  if (it == objects_.end()) throw IoError("stat", path, ENOENT);
  return it->second.modified_ns;
}

void MemoryObjectEnv::sync_directory(const std::string& /*path*/) {}

Bytes MemoryObjectEnv::free_space(const std::string& /*path*/) {
  return std::numeric_limits<Bytes>::max() / 2;  // no quota: as good as unlimited
}

}  // namespace dlbench::test
