// An Env wrapper that keeps Darshan's POSIX counters per file (storage/io_counts.h): always on in
// a run (the run's counters file and summary.json come from it) and in tests that prove an fsync
// was really issued or that a reader moved exactly the bytes it claims. Only operations that
// succeed are counted.
//
// Cost: a file's record is found when it is opened. A thread that opens the files in the order it
// did before (a dataset read again without shuffling) finds it as the record that followed the
// previous file's last time, whose lines were fetched into the cache during that file's I/O: one
// comparison of the path. Otherwise, before the open's system call (so that the record's lines
// arrive during it): one 8-byte hash of the path, then under the wrapper's lock one probe of a flat
// open-addressing table of (hash, record) pairs, 16 bytes a file (the node-based
// std::unordered_multimap it replaced missed the cache two or three times per open); after it,
// one comparison of the path. A dataset that streams through the cache evicts the table between
// epochs, so the probe is a miss on nearly every open: the prediction spares it. Each read,
// write or sync then updates the record through the pointer its file holds, under the record's
// own one-byte lock (uncontended unless threads share the file), with two reads of the counters'
// clock (TickClock: the time-stamp counter where the kernel uses it, ~20 ns cheaper a read than
// the steady clock) and no allocation. Records keep clock ticks; snapshots convert them to seconds.
// Records are compact (~0.85 KiB with a path of up to 112 bytes; a file's 5th to 32nd distinct
// access size or stride gets an array of its own) and never freed while the wrapper lives (reset()
// zeroes them); files it opens refer to it and to their record, so it must outlive them.
//
// Memory is bounded by a budget (limit_records; unbounded until it is called), as Darshan bounds
// its module memory: once the records and their share of the table would exceed it, a path
// without a record of its own is counted in its group's folded record (one per group, kept as a
// few shards so that reader threads do not contend on one lock, merged in snapshots), and is not
// remembered: the totals stay exact, and files() gives each group's folded record with the
// number of distinct files it holds (exact up to 128, then a 1 KiB HyperLogLog estimate, ~3 %).
// Thread-safe: any thread may use the files while another takes a snapshot.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "storage/env_wrapper.h"
#include "storage/io_counts.h"
#include "storage/spin_lock.h"
#include "storage/tick_clock.h"

namespace dlbench::storage {

class CountingEnv final : public EnvWrapper {
 public:
  // The hash records are found by; paths with the same hash get records of their own (tests
  // pass one that collides).
  using PathHash = std::uint64_t (*)(std::string_view path);
  static std::uint64_t HashPath(std::string_view path);

  // Timestamps count from `origin` (steady clock), by default the wrapper's construction.
  explicit CountingEnv(
      Env& target, std::chrono::steady_clock::time_point origin = std::chrono::steady_clock::now(),
      PathHash hash = HashPath, TickClock::Source clock = TickClock::Source::kBest);
  ~CountingEnv() override;

  // The group a path beyond the budget is folded into, named by a path (staging names the tier's
  // folder, so that staging::CountsPerTier finds its tier); by default kFoldedPath.
  using FoldGroup = std::function<std::string(const std::string& path)>;
  static constexpr const char* kFoldedPath = "(folded)";
  // What a record costs the budget: the record, its share of the table (at most 4 slots: the
  // table is a power of two at least twice the records), and a long path's heap block.
  static std::size_t RecordCost(std::size_t path_size);
  // Keeps records within `budget` bytes (RecordCost each; a file's 5th to 32nd distinct size or
  // stride, 0.4 KiB, is not charged). Call before any file is opened (records already made
  // stay). 0 folds every file.
  void limit_records(Bytes budget, FoldGroup group = {});

  IoCounts counts() const;  // a snapshot of the sum over all files (folded ones included)
  // A snapshot per file (rank 0), sorted by path; then one record per group of folded files,
  // with FileCounts::folded_files set.
  std::vector<FileCounts> files() const;
  std::size_t records() const;  // files with a record of their own
  void reset();
  // Seconds since the origin: the clock of the counters' timestamps.
  double now() const;
  // A reading of that clock in its own ticks, as the records keep it (for the files it opens).
  double ticks() const { return clock_.now(); }

  std::unique_ptr<ReadableFile> open_read(const std::string& path,
                                          const OpenOptions& options = {}) override;
  // Every read of the mapping counts as a read (Darshan sees none: page faults are not calls).
  std::unique_ptr<ReadableFile> open_mapped(const std::string& path) override;
  std::unique_ptr<WritableFile> create(const std::string& path,
                                       const OpenOptions& options = {}) override;
  // Counted as a create of the name the file is written under (its path(): `path` itself when the
  // target writes it without a name), as Darshan counts the open of that name. Its publish()
  // counts a close and, when that name is not the final one, a rename to the final name; its
  // abandon() a close and, when it had a name, a remove (the system calls PosixEnv makes).
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
  bool exists(const std::string& path) override;
  Bytes file_size(const std::string& path) override;
  std::int64_t modified_ns(const std::string& path) override;
  void sync_directory(const std::string& path) override;
  Bytes free_space(const std::string& path) override;

  class Record;  // one file's counters and Darshan's per-file tracking state

 private:
  class PendingFile;  // a file created for publishing, counted (counting_env.cpp)

  Record& record(const std::string& path) { return record(path, hash_(path)); }
  Record& record(const std::string& path, std::uint64_t key);  // found or created; key: its hash
  // The record of the first path with hash `key`, or null; starts fetching its lines into the
  // cache. Called before an open's system call, so that the lines the open, read and close update
  // (~9 per record, ~7 MiB for 8,192 files: beyond this VM's 4 MiB L2) arrive during it: fetched
  // after it, the first one was a miss on ~every open of a dataset's file (perf: ~60 % of the
  // lookup's samples, ~1 % of a 4 KiB npy sample's CPU). The caller compares the path.
  Record* find(std::uint64_t key) const;
  // Counts one operation without a file in Env-level counts (folders, listings).
  void add_env_op(std::uint64_t IoCounts::*count);
  template <class Open>
  auto counted_open(const std::string& path, bool creates, Open&& open);

  // Files beyond the budget, per group: a few records (by path hash, so that one file's accesses
  // stay on one) and the distinct-count registers.
  static constexpr std::size_t kFoldShards = 8;
  struct Fold;
  Record& fold(const std::string& path, std::uint64_t key);  // under mutex_

  // One slot of the table: a path's hash and its record (null: the slot is free).
  struct Slot {
    std::uint64_t key = 0;
    Record* record = nullptr;
  };
  void insert(std::uint64_t key, Record* record);  // into a table with a free slot

  TickClock clock_;
  PathHash hash_;
  std::uint64_t id_;  // unique in the process: tells a thread's last-opened record apart
  // Guards records_ and slots_ (not the records) and env_ops_. Taken once per open for a probe of
  // the table, uncontended but for several reader threads opening at once: a spin lock (one
  // atomic exchange per lookup, where a std::mutex's lock and unlock cost two).
  mutable SpinLock mutex_;
  std::vector<std::unique_ptr<Record>> records_;  // in creation order
  // Linear probing from hash_(path) modulo the size (a power of two, at least twice the records):
  // paths with equal hashes take the following slots.
  std::vector<Slot> slots_;
  IoCounts env_ops_;
  Bytes budget_ = ~Bytes{0};  // for records_ and slots_ (RecordCost each)
  Bytes charged_ = 0;
  FoldGroup fold_group_;
  std::vector<std::unique_ptr<Fold>> folds_;
};

}  // namespace dlbench::storage
