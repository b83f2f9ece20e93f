// A bounded cache of dataset files on a fast tier, for the staging policies that copy while
// training reads: per_epoch (a background prefetch of the next epoch's files while training reads
// this epoch's, evicting files no longer needed) and on_demand (a file is copied on its first
// read). Units are the caller's file indexes 0..n-1; a unit is a data file with its companions
// (index files), cached or evicted together. A unit is readable from the fast tier only once
// every file of it is there under its final name (file_copy.h), so a reader asking cached(i)
// never sees a partial copy. `capacity` bounds the bytes cached at once (units that do not fit
// are read from where they are). Thread-safe: reader threads call cached()/Fetch() while the
// prefetch thread copies and evicts. The Env must outlive the cache; the destructor stops the
// prefetch (waiting for the files being copied) and leaves the cached files in place.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

#include "staging/file_copy.h"
#include "storage/file.h"

namespace dlbench::staging {

struct CacheUnit {
  std::vector<FileCopy> files;  // from: the capacity tier; to: the fast tier
  Bytes bytes = 0;              // the size of all of them
};

struct CacheStats {
  CopyStats copied;             // seconds: time the copies took, summed over prefetch jobs
  std::uint64_t evictions = 0;  // units removed to make room for wanted ones (not Clear's)
  std::uint64_t no_room = 0;    // copies not made because the capacity was used up
  Bytes peak_bytes = 0;         // the most bytes cached at once
};

class FileCache {
 public:
  FileCache(storage::Env& env, std::vector<CacheUnit> units, Bytes capacity, CopyOptions options);
  ~FileCache();
  FileCache(const FileCache&) = delete;
  FileCache& operator=(const FileCache&) = delete;

  std::size_t size() const { return units_.size(); }
  // True when unit `i` is complete on the fast tier.
  bool cached(std::size_t i) const;
  // on_demand: copies unit `i` now unless it is cached or there is no room; concurrent calls for
  // one unit copy it once (the others wait). Returns cached(i). Throws the copy's error.
  bool fetch(std::size_t i);
  // per_epoch: stops the running prefetch (waiting for the files being copied), then in the
  // background evicts every cached unit not in `wanted` and copies the units of `wanted`, in
  // order, that are not cached yet and fit. A prefetch error is rethrown by the next Prefetch,
  // Wait or Stop.
  void prefetch(std::vector<std::size_t> wanted);
  // Waits for the running prefetch to finish its list.
  void wait();
  // Stops the prefetch as Prefetch does, then removes every cached unit (the fast tier's copies).
  void clear();
  CacheStats stats() const;

 private:
  enum State : int { kAbsent, kCopying, kCached };

  // Reserves room for unit `i` and marks it kCopying; false if it is not kAbsent or does not fit.
  bool reserve(std::size_t i);
  void copy_unit(std::size_t i, std::vector<char>& buffer);
  // Removes unit `i`'s files; `count`: an eviction for the stats (Clear's removals are not).
  void evict(std::size_t i, bool count);
  void stop_prefetch();
  void rethrow_prefetch_error();

  storage::Env& env_;
  const std::vector<CacheUnit> units_;
  const Bytes capacity_;
  const CopyOptions options_;

  mutable std::mutex mutex_;
  std::condition_variable copied_;  // a unit left kCopying
  std::vector<std::atomic<int>> states_;
  Bytes used_ = 0;
  CacheStats stats_;

  std::thread prefetch_;
  std::atomic<bool> cancel_{false};
  std::exception_ptr prefetch_error_;
};

}  // namespace dlbench::staging
