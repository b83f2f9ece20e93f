// An Env wrapper that records every storage operation as a POSIX event (trace/event.h) with its
// file, offset, size and result (`ret`: bytes moved, 0, or -1 when the operation threw), when a
// Recorder is active. Files whose path the recorder does not trace (profiling.trace_data_dirs,
// profiling.trace_sample by path) are returned unwrapped, so they cost nothing. It sits on top of
// the run's storage (tiers included), so the times are what the workload experienced. It only
// watches: every operation goes to the target as it came (publishing and shared files too), so a
// traced run makes the same system calls as an untraced one.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "storage/env_wrapper.h"

namespace dlbench::trace {

class TracingEnv final : public storage::EnvWrapper {
 public:
  explicit TracingEnv(storage::Env& target) : EnvWrapper(target) {}

  std::unique_ptr<storage::ReadableFile> open_read(
      const std::string& path, const storage::OpenOptions& options = {}) override;
  // An open event; each read of the mapping is a read event.
  std::unique_ptr<storage::ReadableFile> open_mapped(const std::string& path) override;
  std::unique_ptr<storage::WritableFile> create(const std::string& path,
                                                const storage::OpenOptions& options = {}) override;
  // A create event; its publish() is a rename event on the final name (a rename or a link into
  // place), its abandon() an unlink event.
  std::unique_ptr<storage::WritableFile> create_for_publish(
      const std::string& path, const storage::PublishOptions& options = {}) override;
  std::unique_ptr<storage::WritableFile> open_write(
      const std::string& path, const storage::OpenOptions& options = {}) override;
  // An open-for-writing event; the shared file's writes, reads, sync and close are events too.
  std::unique_ptr<storage::SharedFile> open_shared(const std::string& path,
                                                   storage::SharedFileOpener& opener) override;
  void rename(const std::string& from, const std::string& to) override;
  void create_directories(const std::string& path) override;
  void remove(const std::string& path) override;
  void remove_files(const std::vector<std::string>& paths) override;
  void remove_tree(const std::string& path) override;
  void for_each_entry(const std::string& path, const EntryVisitor& visit) override;
  bool exists(const std::string& path) override;
  Bytes file_size(const std::string& path) override;
  std::int64_t modified_ns(const std::string& path) override;
  void sync_directory(const std::string& path) override;
  Bytes free_space(const std::string& path) override;
};

}  // namespace dlbench::trace
