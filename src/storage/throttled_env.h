// An Env wrapper that makes storage slower on purpose, to emulate a tier (a burst buffer, a
// remote file system) on whatever disk the machine has: every data operation waits for its bytes
// in a TokenBucket shared by all threads using this Env, and every operation (data and
// metadata) first waits a fixed latency. Files it opens refer to it, so it must outlive them.
#pragma once

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
  // Bytes that may pass at once after idling; 0 = one tenth of a second of bandwidth (at least
  // 1 MiB), so that a tier neither bursts for long nor stalls on every small request.
  Bytes burst = 0;
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
  void remove_tree(const std::string& path) override;  // one latency, whatever the tree holds
  std::vector<DirectoryEntry> list_directory(const std::string& path) override;
  bool exists(const std::string& path) override;
  Bytes file_size(const std::string& path) override;
  std::int64_t modified_ns(const std::string& path) override;
  void sync_directory(const std::string& path) override;
  Bytes free_space(const std::string& path) override;

  // Waits the per-operation latency, then for `bytes` of bandwidth. Used by the wrapped files.
  void throttle(Bytes bytes);

 private:
  ThrottleClock& clock_;
  Seconds latency_;
  std::optional<TokenBucket> bucket_;
};

}  // namespace dlbench::storage
