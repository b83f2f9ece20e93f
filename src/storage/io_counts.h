// Darshan's POSIX counters (module version 4) for one file on one rank, for a file reduced over
// ranks, or summed over files: the one type in which dlbench counts storage operations (the
// counting wrapper, storage/counting_env.h, fills it; tests, summary.json and the per-rank
// counters file read it). Names, update rules and the size-bucket edges are Darshan's
// (docs/counters.md); a few extra DLBENCH_* counts cover the Env operations Darshan has no counter
// for (folder listings, mkdir, removes). Pure values: no I/O, no locks.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "util/units.h"

namespace dlbench::storage {

inline constexpr int kSizeBuckets = 10;
// The Darshan size bucket (0 = 0_100 … 9 = 1G_PLUS) of an access that returned `bytes`.
int SizeBucket(Bytes bytes);
// "0_100", "100_1K", … "1G_PLUS": Darshan's counter-name suffixes.
const char* SizeBucketSuffix(int bucket);

// The four most common non-zero values (access sizes or strides) with their counts, sorted by
// count descending, then value descending; empty slots are {0, 0}.
using CommonValues = std::array<std::pair<std::int64_t, std::uint64_t>, 4>;

// Adds `incoming` into `into` (counts of equal values summed) and re-ranks.
void MergeCommonValues(CommonValues& into, const CommonValues& incoming);

struct IoCounts {
  // Darshan integer counters (POSIX_<NAME>).
  std::uint64_t opens = 0;    // every successful open: open_read, create, open_write, open_shared
  std::uint64_t reads = 0;    // read_at calls that returned (EOF reads count)
  std::uint64_t writes = 0;   // write_at and append (shared files: write_at_all too)
  std::uint64_t seeks = 0;    // always 0: dlbench reads and writes at explicit offsets
  std::uint64_t stats = 0;    // exists (when the path exists) and file_size
  std::int64_t mmaps = -1;    // Darshan's value when mmap is not wrapped
  std::uint64_t syncs = 0;    // POSIX_FSYNCS
  std::uint64_t renames = 0;  // POSIX_RENAME_SOURCES: the file was renamed away
  std::uint64_t rename_targets = 0;
  Bytes bytes_read = 0;  // bytes actually returned by reads
  Bytes bytes_written = 0;
  std::int64_t max_byte_read = 0;  // max(offset + returned − 1)
  std::int64_t max_byte_written = 0;
  std::uint64_t consec_reads = 0;  // offset == last byte read + 1
  std::uint64_t consec_writes = 0;
  std::uint64_t seq_reads = 0;  // offset > last byte read (includes consecutive)
  std::uint64_t seq_writes = 0;
  std::uint64_t rw_switches = 0;
  std::uint64_t mem_not_aligned = 0;   // buffer address % kMemAlignment != 0
  std::uint64_t file_not_aligned = 0;  // offset % kFileAlignment != 0
  std::int64_t max_read_time_size = 0;
  std::int64_t max_write_time_size = 0;
  std::array<std::uint64_t, kSizeBuckets> size_read{};
  std::array<std::uint64_t, kSizeBuckets> size_write{};
  CommonValues strides{};
  CommonValues accesses{};
  // Set by the cross-rank reduction of a shared file (−1 otherwise).
  std::int64_t fastest_rank = -1;
  std::int64_t fastest_rank_bytes = 0;
  std::int64_t slowest_rank = -1;
  std::int64_t slowest_rank_bytes = 0;

  // Darshan double counters (POSIX_F_<NAME>), seconds; timestamps since the counting began.
  double open_start = 0, read_start = 0, write_start = 0, close_start = 0;
  double open_end = 0, read_end = 0, write_end = 0, close_end = 0;
  double read_time = 0;
  double write_time = 0;  // includes fsync
  double meta_time = 0;   // open, close, stat, rename
  double max_read_time = 0;
  double max_write_time = 0;
  double fastest_rank_time = 0;
  double slowest_rank_time = 0;
  double variance_rank_time = 0;
  double variance_rank_bytes = 0;

  // dlbench's counts of Env operations Darshan has no counter for (DLBENCH_<NAME>).
  std::uint64_t creates = 0;  // create, open_write, open_shared (also counted in opens)
  std::uint64_t closes = 0;   // explicit WritableFile::close and closed readable files
  std::uint64_t directory_syncs = 0;
  std::uint64_t removes = 0;
  std::uint64_t mkdirs = 0;  // create_directories calls
  std::uint64_t tree_removes = 0;
  std::uint64_t lists = 0;  // list_directory
  std::uint64_t free_space_queries = 0;

  // read + write + metadata time: Darshan's per-rank I/O time of a record.
  double io_time() const { return read_time + write_time + meta_time; }
};

inline constexpr std::int64_t kMemAlignment = 8;      // POSIX_MEM_ALIGNMENT (Darshan's default)
inline constexpr std::int64_t kFileAlignment = 4096;  // POSIX_FILE_ALIGNMENT (see counters.md)

// Calls f(name, value...) for every counter, in Darshan's order, with its Darshan (or DLBENCH_)
// name and a reference to that counter in each of the records `c...` (one record to read or write
// it, two to combine them).
// Constants (POSIX_MEM_ALIGNMENT, POSIX_FILE_ALIGNMENT) are not visited.
template <class F, class... Counts>
void VisitCounters(F&& f, Counts&... c);

// Darshan's combination of two records: sums of counts, bytes
// and times, maxima of max bytes, end timestamps and slowest operations, minimum non-zero start
// timestamps, common values merged. Rank fields are left alone (ReduceSharedFiles sets them).
void MergeCounts(IoCounts& into, const IoCounts& from);

// One file's counters on one rank (rank −1 after a shared-file reduction).
struct FileCounts {
  std::string path;
  std::int64_t rank = 0;
  IoCounts counts;
  // > 0: the record of files beyond the counting budget (storage::CountingEnv::limit_records),
  // this many distinct files by estimate; `path` names their group. Never a shared record.
  std::uint64_t folded_files = 0;
};

// One shared file's records, added in rank order, reduced as Darshan does: MergeCounts of them
// all, the fastest and slowest rank by io_time() (the first rank on a tie) with its bytes and
// time, and the population variances of time and bytes over the ranks. Streams: what it keeps does
// not grow with the ranks.
class SharedRecord {
 public:
  void add(std::int64_t rank, const IoCounts& counts);
  std::size_t ranks() const { return ranks_; }
  IoCounts result() const;  // after at least one add

 private:
  struct Extreme {
    std::int64_t rank = -1;
    double time = 0;
    Bytes bytes = 0;
  };
  IoCounts merged_;
  std::size_t ranks_ = 0;
  double time_sum_ = 0, time_squares_ = 0, bytes_sum_ = 0, bytes_squares_ = 0;
  Extreme fastest_, slowest_;
};

// Darshan's cross-rank reduction: a file that every one of `ranks` (> 1) ranks has a record for
// becomes one record with rank −1 (MergeCounts, plus fastest/slowest rank with time and bytes and
// the variance of time and bytes across ranks); other records keep their rank. `per_rank[r]` are
// rank r's records. Output sorted by path, then rank.
std::vector<FileCounts> ReduceSharedFiles(const std::vector<std::vector<FileCounts>>& per_rank);

// Darshan's job-level I/O performance estimate (pydarshan agg_perf_by_slowest) over reduced
// records: total bytes / (max over ranks of its unique files' I/O time + Σ shared files' slowest
// rank time).
struct AggregatePerformance {
  Bytes bytes = 0;
  double time_by_slowest = 0;  // seconds
  double MiB_per_second = 0;   // 0 when no time was spent
};
AggregatePerformance PerformanceBySlowest(const std::vector<FileCounts>& reduced);

// The counters as a JSON object keyed by their names, and back (any nlohmann::json-like type:
// storage/ itself does not depend on a JSON library). A missing key leaves its counter at the
// default (`sparse` leaves out the counters at their defaults: a dataset's many read-only files
// then take a few hundred bytes each); a value of the wrong type throws the JSON library's
// exception.
template <class Json>
Json CountsToJson(const IoCounts& counts, bool sparse = false) {
  Json json = Json::object();
  const IoCounts defaults;
  VisitCounters(
      [&](const char* name, const auto& value, const auto& default_value) {
        if (!sparse || value != default_value) json[name] = value;
      },
      counts, defaults);
  return json;
}
template <class Json>
IoCounts CountsFromJson(const Json& json) {
  IoCounts counts;
  VisitCounters(
      [&](const char* name, auto& value) {
        const auto it = json.find(name);
        if (it != json.end()) it->get_to(value);
      },
      counts);
  return counts;
}

// ---- implementation of the template ----

template <class F, class... Counts>
void VisitCounters(F&& f, Counts&... c) {
  f("POSIX_OPENS", c.opens...);
  f("POSIX_READS", c.reads...);
  f("POSIX_WRITES", c.writes...);
  f("POSIX_SEEKS", c.seeks...);
  f("POSIX_STATS", c.stats...);
  f("POSIX_MMAPS", c.mmaps...);
  f("POSIX_FSYNCS", c.syncs...);
  f("POSIX_RENAME_SOURCES", c.renames...);
  f("POSIX_RENAME_TARGETS", c.rename_targets...);
  f("POSIX_BYTES_READ", c.bytes_read...);
  f("POSIX_BYTES_WRITTEN", c.bytes_written...);
  f("POSIX_MAX_BYTE_READ", c.max_byte_read...);
  f("POSIX_MAX_BYTE_WRITTEN", c.max_byte_written...);
  f("POSIX_CONSEC_READS", c.consec_reads...);
  f("POSIX_CONSEC_WRITES", c.consec_writes...);
  f("POSIX_SEQ_READS", c.seq_reads...);
  f("POSIX_SEQ_WRITES", c.seq_writes...);
  f("POSIX_RW_SWITCHES", c.rw_switches...);
  f("POSIX_MEM_NOT_ALIGNED", c.mem_not_aligned...);
  f("POSIX_FILE_NOT_ALIGNED", c.file_not_aligned...);
  f("POSIX_MAX_READ_TIME_SIZE", c.max_read_time_size...);
  f("POSIX_MAX_WRITE_TIME_SIZE", c.max_write_time_size...);
  static const std::array<std::string, kSizeBuckets* 2> kBucketNames = [] {
    std::array<std::string, kSizeBuckets * 2> names;
    for (int b = 0; b < kSizeBuckets; ++b) {
      names[b] = std::string("POSIX_SIZE_READ_") + SizeBucketSuffix(b);
      names[kSizeBuckets + b] = std::string("POSIX_SIZE_WRITE_") + SizeBucketSuffix(b);
    }
    return names;
  }();
  for (int b = 0; b < kSizeBuckets; ++b) f(kBucketNames[b].c_str(), c.size_read[b]...);
  for (int b = 0; b < kSizeBuckets; ++b)
    f(kBucketNames[kSizeBuckets + b].c_str(), c.size_write[b]...);
  static const char* const kStride[] = {"POSIX_STRIDE1_STRIDE", "POSIX_STRIDE2_STRIDE",
                                        "POSIX_STRIDE3_STRIDE", "POSIX_STRIDE4_STRIDE"};
  static const char* const kStrideCount[] = {"POSIX_STRIDE1_COUNT", "POSIX_STRIDE2_COUNT",
                                             "POSIX_STRIDE3_COUNT", "POSIX_STRIDE4_COUNT"};
  static const char* const kAccess[] = {"POSIX_ACCESS1_ACCESS", "POSIX_ACCESS2_ACCESS",
                                        "POSIX_ACCESS3_ACCESS", "POSIX_ACCESS4_ACCESS"};
  static const char* const kAccessCount[] = {"POSIX_ACCESS1_COUNT", "POSIX_ACCESS2_COUNT",
                                             "POSIX_ACCESS3_COUNT", "POSIX_ACCESS4_COUNT"};
  for (int i = 0; i < 4; ++i) f(kStride[i], c.strides[i].first...);
  for (int i = 0; i < 4; ++i) f(kStrideCount[i], c.strides[i].second...);
  for (int i = 0; i < 4; ++i) f(kAccess[i], c.accesses[i].first...);
  for (int i = 0; i < 4; ++i) f(kAccessCount[i], c.accesses[i].second...);
  f("POSIX_FASTEST_RANK", c.fastest_rank...);
  f("POSIX_FASTEST_RANK_BYTES", c.fastest_rank_bytes...);
  f("POSIX_SLOWEST_RANK", c.slowest_rank...);
  f("POSIX_SLOWEST_RANK_BYTES", c.slowest_rank_bytes...);
  f("POSIX_F_OPEN_START_TIMESTAMP", c.open_start...);
  f("POSIX_F_READ_START_TIMESTAMP", c.read_start...);
  f("POSIX_F_WRITE_START_TIMESTAMP", c.write_start...);
  f("POSIX_F_CLOSE_START_TIMESTAMP", c.close_start...);
  f("POSIX_F_OPEN_END_TIMESTAMP", c.open_end...);
  f("POSIX_F_READ_END_TIMESTAMP", c.read_end...);
  f("POSIX_F_WRITE_END_TIMESTAMP", c.write_end...);
  f("POSIX_F_CLOSE_END_TIMESTAMP", c.close_end...);
  f("POSIX_F_READ_TIME", c.read_time...);
  f("POSIX_F_WRITE_TIME", c.write_time...);
  f("POSIX_F_META_TIME", c.meta_time...);
  f("POSIX_F_MAX_READ_TIME", c.max_read_time...);
  f("POSIX_F_MAX_WRITE_TIME", c.max_write_time...);
  f("POSIX_F_FASTEST_RANK_TIME", c.fastest_rank_time...);
  f("POSIX_F_SLOWEST_RANK_TIME", c.slowest_rank_time...);
  f("POSIX_F_VARIANCE_RANK_TIME", c.variance_rank_time...);
  f("POSIX_F_VARIANCE_RANK_BYTES", c.variance_rank_bytes...);
  f("DLBENCH_CREATES", c.creates...);
  f("DLBENCH_CLOSES", c.closes...);
  f("DLBENCH_DIRECTORY_SYNCS", c.directory_syncs...);
  f("DLBENCH_REMOVES", c.removes...);
  f("DLBENCH_MKDIRS", c.mkdirs...);
  f("DLBENCH_TREE_REMOVES", c.tree_removes...);
  f("DLBENCH_LISTS", c.lists...);
  f("DLBENCH_FREE_SPACE_QUERIES", c.free_space_queries...);
}

}  // namespace dlbench::storage
