// An Env wrapper that fails chosen operations with a chosen errno, so that tests can prove every
// error path: "the 3rd write to a path containing 'ckpt' fails with ENOSPC", "every fsync fails
// with EIO". Faults are thrown as the same Error(kIo) a real failure gives, marked as injected.
// Besides failing, a fault can cut a transfer short (a read that meets an early end of file, a
// write that stops half-way on a full disk), slow an operation down, or SIGKILL the process (a
// rank killed mid-run). Tests build faults here; runs take them from DLBENCH_FAULTS
// (storage/fault_environment.h). Thread-safe (a mutex per operation: for tests, not for
// measurements). Files it opens refer to it, so it must outlive them.
#pragma once

#include <array>
#include <cerrno>
#include <cstdint>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "storage/env_wrapper.h"
#include "util/units.h"

namespace dlbench::storage {

enum class FaultOp {
  kOpenRead,   // Env::open_read and Env::open_mapped
  kCreate,     // Env::create and Env::create_for_publish
  kOpenWrite,  // Env::open_write and Env::open_shared
  kRead,       // also each read of a mapping (Env::open_mapped)
  kWrite,      // write_at and append (a shared file's write_at_all and write_at)
  kSync,
  kClose,   // also WritableFile::publish, which closes the file first
  kRename,  // matches the path of either side; also WritableFile::publish (the file's path, the
            // final name), after its kClose
  kCreateDirectories,
  kRemove,  // also WritableFile::abandon (the file's path)
  kSyncDirectory,
  kRemoveTree,
  kListDirectory,
  kFreeSpace,
  kTruncate,  // WritableFile::truncate
};
inline constexpr std::size_t kFaultOpCount = 15;
const char* ToString(FaultOp op);

// What a matching operation does instead of succeeding.
enum class FaultAction {
  kError,  // throws Error(kIo) with the fault's errno, having done nothing
  kShort,  // kRead: transfers half the bytes, as at an early end of file; kWrite: writes half the
           // bytes, then throws ENOSPC (a full disk); any other operation throws ENOSPC
  kSlow,   // sleeps for the fault's delay, then does the operation
  kKill,   // SIGKILLs the process (no cleanup, no message: a rank killed mid-run)
  kInterrupt,  // kRead, kWrite: every system call of the transfer is first interrupted (EINTR)
               // and retried (counted: PosixRetries); other operations: no effect
};

// What check() leaves to a read or write to do.
enum class Transfer { kWhole, kShort, kInterrupted };

// What to fail, built fluently:
//   Fault(FaultOp::kWrite).nth(3).error(ENOSPC).on_paths_containing("ckpt").keep_failing()
struct Fault {
  explicit Fault(FaultOp operation) : op(operation) {}
  // Matches every operation: nth(n) is then the nth operation of any kind.
  static Fault AnyOperation() {
    Fault fault(FaultOp::kOpenRead);
    fault.any_operation = true;
    return fault;
  }
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
  Fault& cut_short() {
    action = FaultAction::kShort;
    return *this;
  }
  Fault& slow_down(Seconds by) {
    action = FaultAction::kSlow;
    delay = by;
    return *this;
  }
  Fault& kill() {
    action = FaultAction::kKill;
    return *this;
  }
  Fault& interrupt() {
    action = FaultAction::kInterrupt;
    return *this;
  }

  FaultOp op;
  bool any_operation = false;
  FaultAction action = FaultAction::kError;
  Seconds delay = 0;
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
  // Says on stderr (sink::Note) which operation each fault hits, before applying it: for runs
  // under DLBENCH_FAULTS, whose faults may hit an operation the run then reports otherwise.
  void announce_faults() { announce_ = true; }
  // Faults thrown so far.
  std::uint64_t injected() const;
  // Operations of `op` attempted so far, on any path (failed ones included).
  std::uint64_t attempts(FaultOp op) const;
  // Operations of every kind attempted so far.
  std::uint64_t operations() const;

  std::unique_ptr<ReadableFile> open_read(const std::string& path,
                                          const OpenOptions& options = {}) override;
  std::unique_ptr<ReadableFile> open_mapped(const std::string& path) override;
  std::unique_ptr<WritableFile> create(const std::string& path,
                                       const OpenOptions& options = {}) override;
  // A publish() or abandon() that a fault fails abandons the file (as a real failure does).
  std::unique_ptr<WritableFile> create_for_publish(const std::string& path,
                                                   const PublishOptions& options = {}) override;
  std::unique_ptr<WritableFile> open_write(const std::string& path,
                                           const OpenOptions& options = {}) override;
  std::unique_ptr<SharedFile> open_shared(const std::string& path,
                                          SharedFileOpener& opener) override;
  void rename(const std::string& from, const std::string& to) override;
  void create_directories(const std::string& path) override;
  void remove(const std::string& path) override;
  void remove_files(const std::vector<std::string>& paths) override;
  void remove_tree(const std::string& path) override;
  void for_each_entry(const std::string& path, const EntryVisitor& visit) override;
  void sync_directory(const std::string& path) override;
  Bytes free_space(const std::string& path) override;

  // Applies the fault matching this operation, if any: throws its error, sleeps, or kills the
  // process. Returns how a read or write is to be done: whole, cut short (kShort) or interrupted
  // (kInterrupt), which the caller does. `other_path` is the second path of a rename. Used by
  // the wrapped files.
  Transfer check(FaultOp op, const std::string& path, const std::string& detail,
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
  bool announce_ = false;
};

}  // namespace dlbench::storage
