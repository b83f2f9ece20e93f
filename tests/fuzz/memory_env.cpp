#include "fuzz/memory_env.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <set>
#include <utility>

#include "util/error.h"

namespace dlbench::fuzz {
namespace {

class MemoryFile final : public storage::ReadableFile {
 public:
  MemoryFile(std::string path, const std::string& bytes) : path_(std::move(path)), bytes_(bytes) {}

  const std::string& path() const override { return path_; }
  Bytes size() const override { return bytes_.size(); }
  Bytes read_at(Bytes offset, void* buffer, Bytes length) override {
    if (offset >= bytes_.size()) return 0;
    const Bytes n = std::min<Bytes>(length, bytes_.size() - offset);
    std::memcpy(buffer, bytes_.data() + offset, n);
    return n;
  }
  void drop_cache() override {}

 private:
  std::string path_;
  const std::string& bytes_;
};

[[noreturn]] void ReadOnly(const std::string& operation, const std::string& path) {
  throw Error(ExitCode::kInternal, "fuzz MemoryEnv is read-only: " + operation + " " + path);
}

}  // namespace

void MemoryEnv::add(const std::string& path, std::string_view bytes) {
  files_[path] = std::string(bytes);
  added_[path] = static_cast<std::int64_t>(added_.size()) + 1;
}

std::unique_ptr<storage::ReadableFile> MemoryEnv::open_read(const std::string& path,
                                                            const storage::OpenOptions&) {
  const auto it = files_.find(path);
  if (it == files_.end()) throw IoError("open", path, ENOENT);
  return std::make_unique<MemoryFile>(path, it->second);
}

std::unique_ptr<storage::WritableFile> MemoryEnv::create(const std::string& path,
                                                         const storage::OpenOptions&) {
  ReadOnly("create", path);
}

std::unique_ptr<storage::WritableFile> MemoryEnv::create_for_publish(
    const std::string& path, const storage::PublishOptions&) {
  ReadOnly("create_for_publish", path);
}

std::unique_ptr<storage::WritableFile> MemoryEnv::open_write(const std::string& path,
                                                             const storage::OpenOptions&) {
  ReadOnly("open_write", path);
}

std::unique_ptr<storage::SharedFile> MemoryEnv::open_shared(const std::string& path,
                                                            storage::SharedFileOpener&) {
  ReadOnly("open_shared", path);
}

void MemoryEnv::rename(const std::string& from, const std::string&) { ReadOnly("rename", from); }
void MemoryEnv::create_directories(const std::string& path) { ReadOnly("mkdir", path); }
void MemoryEnv::remove(const std::string& path) { ReadOnly("remove", path); }
void MemoryEnv::remove_tree(const std::string& path) { ReadOnly("remove_tree", path); }
void MemoryEnv::sync_directory(const std::string&) {}
Bytes MemoryEnv::free_space(const std::string&) { return 0; }

storage::Capabilities MemoryEnv::capabilities(const std::string&) {
  storage::Capabilities can = storage::Capabilities::ObjectStore("fuzz memory");
  can.directories = true;
  return can;
}

bool MemoryEnv::is_folder(const std::string& path) const {
  const std::string prefix = path.ends_with('/') ? path : path + "/";
  const auto it = files_.lower_bound(prefix);
  return it != files_.end() && it->first.starts_with(prefix);
}

void MemoryEnv::for_each_entry(const std::string& path, const EntryVisitor& visit) {
  const std::string prefix = path.ends_with('/') ? path : path + "/";
  std::set<std::string> files, folders;
  for (auto it = files_.lower_bound(prefix); it != files_.end() && it->first.starts_with(prefix);
       ++it) {
    const std::string rest = it->first.substr(prefix.size());
    const std::size_t slash = rest.find('/');
    if (slash == std::string::npos) {
      files.insert(rest);
    } else {
      folders.insert(rest.substr(0, slash));
    }
  }
  std::vector<storage::DirectoryEntry> entries;
  for (const std::string& name : files) entries.push_back({name, false});
  for (const std::string& name : folders) entries.push_back({name, true});
  for (const storage::DirectoryEntry& entry : entries) {
    if (!visit(entry)) return;
  }
}

bool MemoryEnv::exists(const std::string& path) { return files_.contains(path) || is_folder(path); }

Bytes MemoryEnv::file_size(const std::string& path) {
  const auto it = files_.find(path);
  if (it == files_.end()) throw IoError("stat", path, ENOENT);
  return it->second.size();
}

std::int64_t MemoryEnv::modified_ns(const std::string& path) {
  const auto it = added_.find(path);
  if (it == added_.end()) throw IoError("stat", path, ENOENT);
  return it->second;
}

}  // namespace dlbench::fuzz
