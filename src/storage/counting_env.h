// An Env wrapper that counts operations and bytes, so tests can prove that an fsync was really
// issued or that a reader moved exactly the bytes it claims. Thread-safe (one mutex: for tests, not
// for measurements): any thread may use the files while another reads the counts. Only operations
// that succeed are counted. Files it opens refer to it, so it must outlive them.
#pragma once

#include <cstdint>
#include <mutex>

#include "storage/env_wrapper.h"

namespace dlbench::storage {

struct IoCounts {
  std::uint64_t opens = 0;    // open_read
  std::uint64_t creates = 0;  // create, open_write and open_shared
  std::uint64_t reads = 0;
  std::uint64_t writes = 0;  // write_at and append (shared files: write_at_all and write_at)
  std::uint64_t syncs = 0;   // file fsyncs
  std::uint64_t closes = 0;  // explicit WritableFile::close
  std::uint64_t renames = 0;
  std::uint64_t directory_syncs = 0;
  std::uint64_t removes = 0;
  std::uint64_t mkdirs = 0;  // create_directories calls
  std::uint64_t tree_removes = 0;
  std::uint64_t lists = 0;  // list_directory
  std::uint64_t free_space_queries = 0;
  Bytes bytes_read = 0;  // bytes actually returned by reads
  Bytes bytes_written = 0;
  std::uint64_t stats = 0;  // exists and file_size
};

class CountingEnv final : public EnvWrapper {
 public:
  explicit CountingEnv(Env& target) : EnvWrapper(target) {}

  IoCounts counts() const;  // a snapshot
  void reset();
  // Adds `amount` to one count (used by the files it opens).
  void add(std::uint64_t IoCounts::*count, std::uint64_t amount = 1);

  std::unique_ptr<ReadableFile> open_read(const std::string& path,
                                          const OpenOptions& options = {}) override;
  std::unique_ptr<WritableFile> create(const std::string& path,
                                       const OpenOptions& options = {}) override;
  std::unique_ptr<WritableFile> open_write(const std::string& path,
                                           const OpenOptions& options = {}) override;
  std::unique_ptr<SharedFile> open_shared(const std::string& path,
                                          SharedFileOpener& opener) override;
  void rename(const std::string& from, const std::string& to) override;
  void create_directories(const std::string& path) override;
  void remove(const std::string& path) override;
  void remove_tree(const std::string& path) override;
  std::vector<DirectoryEntry> list_directory(const std::string& path) override;
  bool exists(const std::string& path) override;
  Bytes file_size(const std::string& path) override;
  void sync_directory(const std::string& path) override;
  Bytes free_space(const std::string& path) override;

 private:
  mutable std::mutex mutex_;
  IoCounts counts_;
};

}  // namespace dlbench::storage
