// An Env wrapper that makes storage slower on purpose, to emulate a tier (a burst buffer, a
// remote file system) on whatever disk the machine has: every data operation waits for its bytes
// in a TokenBucket shared by all threads using this Env, and every operation (data and
// metadata) first waits a fixed latency. Files it opens refer to it, so it must outlive them.
//
// The bytes are paid before they move (a read pays for what the file holds at its offset, up to
// its length, and gets back what it did not read), in pieces of at most chunk() bytes, so the
// bytes moved through one ThrottledEnv in any window of W seconds are at most bandwidth × W +
// burst + one piece: bandwidth × (W + 2 × kBurstSeconds) with the default burst at limits of
// 400 KiB/s and more (docs/configuration.md). Shared files' transfers (collective, MPI-IO) are
// not split, and their reads pay after the read. Where reads are requests (an object store:
// Capabilities::reads_are_requests), a read is paid in pieces and then sent whole, so the
// server sees the requests it would see without the throttle.
#pragma once

#include <atomic>
#include <memory>
#include <optional>

#include "storage/env_wrapper.h"
#include "storage/throttle_clock.h"
#include "storage/token_bucket.h"

namespace dlbench::storage {

struct ThrottleOptions {
  std::optional<BytesPerSecond>
      bandwidth;          // bytes/s for reads and writes together; none = no limit
  Seconds latency = 0.0;  // added before every operation
  // Bytes that may pass at once after idling; 0 = kBurstSeconds of bandwidth (at least 1 byte),
  // so that the limit holds over any window of W seconds within `bandwidth` × 2 kBurstSeconds,
  // and a sleep that wakes up to that late is credited to the next request.
  Bytes burst = 0;
  static constexpr Seconds kBurstSeconds = 0.01;
};

class ThrottledEnv final : public EnvWrapper {
 public:
  ThrottledEnv(Env& target, const ThrottleOptions& options,
               ThrottleClock& clock = SteadyThrottleClock());

  std::unique_ptr<ReadableFile> open_read(const std::string& path,
                                          const OpenOptions& options = {}) override;
  std::unique_ptr<ReadableFile> open_mapped(const std::string& path) override;
  std::unique_ptr<WritableFile> create(const std::string& path,
                                       const OpenOptions& options = {}) override;
  // Its publish() and abandon() wait one latency, as the rename or remove they stand for.
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
  void remove_tree(const std::string& path) override;  // one latency, whatever the tree holds
  void for_each_entry(const std::string& path, const EntryVisitor& visit) override;
  bool exists(const std::string& path) override;
  Bytes file_size(const std::string& path) override;
  std::int64_t modified_ns(const std::string& path) override;
  void sync_directory(const std::string& path) override;
  Bytes free_space(const std::string& path) override;

  // Waits the per-operation latency, then for `bytes` of bandwidth. Used by the wrapped files.
  void throttle(Bytes bytes);
  void throttle_bytes(Bytes bytes);  // the bandwidth wait alone
  void refund(Bytes bytes);          // bytes paid for that did not move
  // The largest piece a file's read or write moves at once: the burst in whole 4 KiB blocks (at
  // least one); unlimited without a bandwidth limit.
  Bytes chunk() const;

 private:
  // Whether the target's reads are requests (Capabilities::reads_are_requests), asked once: the
  // paths of one ThrottledEnv (a tier's folder) are on one backend.
  bool reads_are_requests(const std::string& path);

  ThrottleClock& clock_;
  Seconds latency_;
  std::optional<TokenBucket> bucket_;
  Bytes chunk_ = 0;
  std::atomic<int> reads_are_requests_{-1};  // -1 until asked
};

}  // namespace dlbench::storage
