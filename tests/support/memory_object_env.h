// An in-memory storage::Env with an object store's rules, so that the code above storage/ is
// tested against a backend that is not a file system: what runs on it runs on S3.
// - Objects, not files: an object appears whole and at once, when the file written for it is
//   published (create_for_publish) or closed (create), never while it is written; abandoning one
//   leaves nothing. Replacing an object replaces it whole; a reader that opened the old one keeps
//   reading the old bytes (a GET in flight).
// - No random writes: write_at, truncate and open_write throw Error(kIo); only append writes.
// - No rename (Error(kIo)), no shared writers (open_shared), no O_DIRECT, no mmap (open_mapped
//   reads positionally): capabilities(path) says so.
// - No directories: create_directories and sync_directory do nothing; a "folder" exists while
//   an object's key starts with it and '/'; for_each_entry lists by prefix with '/' as the
//   delimiter (ListObjectsV2: keys directly under it with their sizes, and common prefixes as
//   folders);
//   remove_tree removes the key and every key under it.
// - modified_ns is the publish time (the system clock, strictly increasing per Env).
// Thread-safe per storage/file.h (one mutex; for tests). The Env outlives its files.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "storage/file.h"

namespace dlbench::test {

class MemoryObjectEnv final : public storage::Env {
 public:
  MemoryObjectEnv() = default;
  MemoryObjectEnv(const MemoryObjectEnv&) = delete;
  MemoryObjectEnv& operator=(const MemoryObjectEnv&) = delete;

  // Every key, sorted.
  std::vector<std::string> keys() const;
  // The bytes of the object `key`; Error(kIo) when there is none.
  std::string object(const std::string& key) const;
  // Operations refused so far (write_at, truncate, rename, ...), by every file and the Env.
  std::uint64_t refused() const;

  storage::Capabilities capabilities(const std::string& path) override;
  std::unique_ptr<storage::ReadableFile> open_read(const std::string& path,
                                                   const storage::OpenOptions& options) override;
  std::unique_ptr<storage::WritableFile> create(const std::string& path,
                                                const storage::OpenOptions& options) override;
  std::unique_ptr<storage::WritableFile> create_for_publish(
      const std::string& path, const storage::PublishOptions& options) override;
  std::unique_ptr<storage::WritableFile> open_write(const std::string& path,
                                                    const storage::OpenOptions& options) override;
  std::unique_ptr<storage::SharedFile> open_shared(const std::string& path,
                                                   storage::SharedFileOpener& opener) override;
  void rename(const std::string& from, const std::string& to) override;
  void create_directories(const std::string& path) override;
  void remove(const std::string& path) override;
  void remove_tree(const std::string& path) override;
  void for_each_entry(const std::string& path, const EntryVisitor& visit) override;
  bool exists(const std::string& path) override;
  Bytes file_size(const std::string& path) override;
  std::int64_t modified_ns(const std::string& path) override;
  void sync_directory(const std::string& path) override;
  Bytes free_space(const std::string& path) override;

  // For its files: puts `bytes` under `key`, whole (a PUT); counts a refusal and throws it.
  void put(const std::string& key, std::string bytes);
  [[noreturn]] void refuse(const std::string& operation, const std::string& path);

 private:
  struct Object {
    std::shared_ptr<const std::string> bytes;
    std::int64_t modified_ns = 0;
  };
  mutable std::mutex mutex_;
  std::map<std::string, Object, std::less<>> objects_;
  std::int64_t last_modified_ = 0;
  std::uint64_t refused_ = 0;
};

}  // namespace dlbench::test
