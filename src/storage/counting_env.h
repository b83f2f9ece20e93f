// An Env wrapper that counts operations and bytes, so tests can prove that an fsync was really
// issued or that a reader moved exactly the bytes it claims. Counters are atomic (relaxed): any
// thread may use the files while another reads the counts. Only operations that succeed are
// counted. Files it opens refer to it, so it must outlive them.
#pragma once

#include <atomic>
#include <cstdint>

#include "storage/file.h"

namespace dlbench::storage {

// A snapshot of the counters.
struct IoCounts {
  std::uint64_t opens = 0;    // open_read
  std::uint64_t creates = 0;  // create and open_write
  std::uint64_t reads = 0;
  std::uint64_t writes = 0;  // write_at and append
  std::uint64_t syncs = 0;   // file fsyncs
  std::uint64_t closes = 0;  // explicit WritableFile::close
  std::uint64_t renames = 0;
  std::uint64_t directory_syncs = 0;
  std::uint64_t removes = 0;
  std::uint64_t mkdirs = 0;  // create_directories calls
  Bytes bytes_read = 0;      // bytes actually returned by reads
  Bytes bytes_written = 0;
  std::uint64_t stats = 0;  // exists and file_size
};

class CountingEnv final : public Env {
 public:
  explicit CountingEnv(Env& base) : base_(base) {}

  IoCounts counts() const;
  void reset();

  std::unique_ptr<ReadableFile> open_read(const std::string& path,
                                          const OpenOptions& options = {}) override;
  std::unique_ptr<WritableFile> create(const std::string& path,
                                       const OpenOptions& options = {}) override;
  std::unique_ptr<WritableFile> open_write(const std::string& path,
                                           const OpenOptions& options = {}) override;
  void rename(const std::string& from, const std::string& to) override;
  void create_directories(const std::string& path) override;
  void remove(const std::string& path) override;
  bool exists(const std::string& path) override;
  Bytes file_size(const std::string& path) override;
  void sync_directory(const std::string& path) override;

  struct Counters {
    std::atomic<std::uint64_t> opens{0}, creates{0}, reads{0}, writes{0}, syncs{0}, closes{0},
        renames{0}, directory_syncs{0}, removes{0}, mkdirs{0}, bytes_read{0}, bytes_written{0},
        stats{0};
  };

 private:
  Env& base_;
  Counters counters_;
};

}  // namespace dlbench::storage
