// A read-only file system held in memory, for the fuzz targets: the parsers under test read the
// fuzzer's bytes through the same storage::Env interface as on disk, without touching the disk.
// Files are added before the parser runs; every write operation throws Error(kInternal), since
// a reader that writes is itself a bug. Not thread-safe (one fuzz input at a time). A file opened
// from it refers to the bytes held here: the MemoryEnv outlives its files.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "storage/file.h"

namespace dlbench::fuzz {

class MemoryEnv final : public storage::Env {
 public:
  // Adds (or replaces) the file at `path` ("/run/trace-0-of-1.pfw"); its folders exist from then
  // on.
  void add(const std::string& path, std::string_view bytes);

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
  // The order in which the file was added (a read-only file system has no clock).
  std::int64_t modified_ns(const std::string& path) override;
  void sync_directory(const std::string& path) override;
  Bytes free_space(const std::string& path) override;
  // A read-only store of whole files: nothing written in place, shared, renamed or mapped.
  storage::Capabilities capabilities(const std::string& path) override;

 private:
  bool is_folder(const std::string& path) const;

  std::map<std::string, std::string, std::less<>> files_;
  std::map<std::string, std::int64_t, std::less<>> added_;  // path -> order of its add
};

}  // namespace dlbench::fuzz
