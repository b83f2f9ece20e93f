// An Env wrapper that fails chosen operations with a chosen errno, so that tests can prove every
// error path: "the 3rd write to a path containing 'ckpt' fails with ENOSPC", "every fsync fails
// with EIO". Faults are thrown as the same Error(kIo) a real failure gives, marked as injected.
// Thread-safe (a mutex per operation: for tests, not for measurements). Files it opens refer to
// it, so it must outlive them.
#pragma once

#include <array>
#include <cerrno>
#include <cstdint>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "storage/env_wrapper.h"

namespace dlbench::storage {

enum class FaultOp {
  kOpenRead,
  kCreate,     // Env::create
  kOpenWrite,  // Env::open_write and Env::open_shared
  kRead,
  kWrite,  // write_at and append (a shared file's write_at_all and write_at)
  kSync,
  kClose,
  kRename,  // matches the path of either side
  kCreateDirectories,
  kRemove,
  kSyncDirectory,
  kRemoveTree,
  kListDirectory,
  kFreeSpace,
  kTruncate,  // WritableFile::truncate
};
inline constexpr std::size_t kFaultOpCount = 15;
const char* ToString(FaultOp op);

// What to fail, built fluently:
//   Fault(FaultOp::kWrite).nth(3).error(ENOSPC).on_paths_containing("ckpt").keep_failing()
struct Fault {
  explicit Fault(FaultOp operation) : op(operation) {}
  // Fail the nth matching operation (1 = the first one).
  Fault& nth(std::uint64_t n) {
    nth_match = n;
    return *this;
  }
  // errno of the failure, e.g. EIO (the default) or ENOSPC.
  Fault& error(int errno_value) {
    error_value = errno_value;
    return *this;
  }
  // Only operations on paths containing `part` match (by default every path does).
  Fault& on_paths_containing(std::string part) {
    path_contains = std::move(part);
    return *this;
  }
  // Every matching operation after the nth fails too (by default later ones succeed).
  Fault& keep_failing() {
    keeps_failing = true;
    return *this;
  }

  FaultOp op;
  std::uint64_t nth_match = 1;
  int error_value = EIO;
  std::string path_contains;
  bool keeps_failing = false;
};

class FaultInjectionEnv final : public EnvWrapper {
 public:
  explicit FaultInjectionEnv(Env& target) : EnvWrapper(target) {}

  void inject(Fault fault);
  void clear();  // removes every fault (counts stay)
  // Faults thrown so far.
  std::uint64_t injected() const;
  // Operations of `op` attempted so far, on any path (failed ones included).
  std::uint64_t attempts(FaultOp op) const;

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
  void sync_directory(const std::string& path) override;
  Bytes free_space(const std::string& path) override;

  // Throws the injected error if a fault matches this operation. `other_path` is the second path
  // of a rename. Used by the wrapped files.
  void check(FaultOp op, const std::string& path, const std::string& detail,
             const std::string& other_path = "");

 private:
  struct Rule {
    Fault fault;
    std::uint64_t seen = 0;
  };
  mutable std::mutex mutex_;
  std::vector<Rule> rules_;
  std::array<std::uint64_t, kFaultOpCount> attempts_{};
  std::uint64_t injected_ = 0;
};

}  // namespace dlbench::storage
