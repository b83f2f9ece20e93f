#include "storage/io_counts.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace dlbench::storage {
namespace {

// Upper edges (inclusive) of the first nine buckets: Darshan's DARSHAN_BUCKET_INC, binary
// multiples despite the names.
constexpr std::array<Bytes, kSizeBuckets - 1> kBucketTop = {
    100, 1024, 10240, 102400, 1048576, 4194304, 10485760, 104857600, 1073741824};

void SortCommon(std::vector<std::pair<std::int64_t, std::uint64_t>>& values) {
  std::sort(values.begin(), values.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first > b.first;
  });
}

void MinNonZero(double& into, double from) {
  if (from != 0 && (into == 0 || from < into)) into = from;
}

}  // namespace

int SizeBucket(Bytes bytes) {
  int bucket = 0;
  while (bucket < kSizeBuckets - 1 && bytes > kBucketTop[bucket]) ++bucket;
  return bucket;
}

const char* SizeBucketSuffix(int bucket) {
  static const char* const kSuffix[kSizeBuckets] = {"0_100",   "100_1K", "1K_10K", "10K_100K",
                                                    "100K_1M", "1M_4M",  "4M_10M", "10M_100M",
                                                    "100M_1G", "1G_PLUS"};
  return kSuffix[bucket];
}

void MergeCommonValues(CommonValues& into, const CommonValues& incoming) {
  std::vector<std::pair<std::int64_t, std::uint64_t>> all;
  for (const CommonValues* side : std::array<const CommonValues*, 2>{&into, &incoming}) {
    for (const auto& [value, count] : *side) {
      if (count == 0) continue;
      auto it =
          std::find_if(all.begin(), all.end(), [&](const auto& v) { return v.first == value; });
      if (it == all.end()) {
        all.emplace_back(value, count);
      } else {
        it->second += count;
      }
    }
  }
  SortCommon(all);
  into = {};
  for (std::size_t i = 0; i < into.size() && i < all.size(); ++i) into[i] = all[i];
}

void MergeCounts(IoCounts& into, const IoCounts& from) {
  const IoCounts keep = into;  // fields that are not sums are fixed up below
  // Sum every counter (the walk pairs up the same field of both records)...
  VisitCounters([](const char*, auto& a, const auto& b) { a += b; }, into, from);
  // ...then restore the maxima, minima and the fields that are not sums.
  into.mmaps = keep.mmaps;
  into.max_byte_read = std::max(keep.max_byte_read, from.max_byte_read);
  into.max_byte_written = std::max(keep.max_byte_written, from.max_byte_written);
  into.max_read_time = std::max(keep.max_read_time, from.max_read_time);
  into.max_read_time_size =
      keep.max_read_time >= from.max_read_time ? keep.max_read_time_size : from.max_read_time_size;
  into.max_write_time = std::max(keep.max_write_time, from.max_write_time);
  into.max_write_time_size = keep.max_write_time >= from.max_write_time ? keep.max_write_time_size
                                                                        : from.max_write_time_size;
  into.strides = keep.strides;
  into.accesses = keep.accesses;
  MergeCommonValues(into.strides, from.strides);
  MergeCommonValues(into.accesses, from.accesses);
  into.fastest_rank = keep.fastest_rank;
  into.fastest_rank_bytes = keep.fastest_rank_bytes;
  into.slowest_rank = keep.slowest_rank;
  into.slowest_rank_bytes = keep.slowest_rank_bytes;
  into.fastest_rank_time = keep.fastest_rank_time;
  into.slowest_rank_time = keep.slowest_rank_time;
  into.variance_rank_time = keep.variance_rank_time;
  into.variance_rank_bytes = keep.variance_rank_bytes;
  into.open_start = keep.open_start;
  into.read_start = keep.read_start;
  into.write_start = keep.write_start;
  into.close_start = keep.close_start;
  MinNonZero(into.open_start, from.open_start);
  MinNonZero(into.read_start, from.read_start);
  MinNonZero(into.write_start, from.write_start);
  MinNonZero(into.close_start, from.close_start);
  into.open_end = std::max(keep.open_end, from.open_end);
  into.read_end = std::max(keep.read_end, from.read_end);
  into.write_end = std::max(keep.write_end, from.write_end);
  into.close_end = std::max(keep.close_end, from.close_end);
}

void SharedRecord::add(std::int64_t rank, const IoCounts& counts) {
  if (ranks_ == 0) {
    merged_ = counts;
  } else {
    MergeCounts(merged_, counts);
  }
  const double time = counts.io_time();
  const Bytes bytes = counts.bytes_read + counts.bytes_written;
  const auto b = static_cast<double>(bytes);
  time_sum_ += time;
  time_squares_ += time * time;
  bytes_sum_ += b;
  bytes_squares_ += b * b;
  if (ranks_ == 0 || time < fastest_.time) fastest_ = {rank, time, bytes};
  if (ranks_ == 0 || time > slowest_.time) slowest_ = {rank, time, bytes};
  ++ranks_;
}

IoCounts SharedRecord::result() const {
  IoCounts c = merged_;
  c.fastest_rank = fastest_.rank;
  c.fastest_rank_bytes = static_cast<std::int64_t>(fastest_.bytes);
  c.fastest_rank_time = fastest_.time;
  c.slowest_rank = slowest_.rank;
  c.slowest_rank_bytes = static_cast<std::int64_t>(slowest_.bytes);
  c.slowest_rank_time = slowest_.time;
  const auto n = static_cast<double>(ranks_);
  // Population variances, as Darshan's (n, T, S) reduction gives them.
  c.variance_rank_time = std::max(0.0, time_squares_ / n - (time_sum_ / n) * (time_sum_ / n));
  c.variance_rank_bytes = std::max(0.0, bytes_squares_ / n - (bytes_sum_ / n) * (bytes_sum_ / n));
  return c;
}

std::vector<FileCounts> ReduceSharedFiles(const std::vector<std::vector<FileCounts>>& per_rank) {
  std::map<std::string, std::vector<const FileCounts*>> by_path;
  for (const std::vector<FileCounts>& records : per_rank) {
    for (const FileCounts& record : records) by_path[record.path].push_back(&record);
  }
  const std::size_t ranks = per_rank.size();
  std::vector<FileCounts> reduced;
  for (const auto& [path, records] : by_path) {
    const bool folded = std::any_of(records.begin(), records.end(),
                                    [](const FileCounts* r) { return r->folded_files > 0; });
    if (ranks < 2 || records.size() != ranks || folded) {
      for (const FileCounts* record : records) reduced.push_back(*record);
      continue;
    }
    SharedRecord shared;
    for (const FileCounts* record : records) shared.add(record->rank, record->counts);
    reduced.push_back({path, -1, shared.result()});
  }
  return reduced;
}

AggregatePerformance PerformanceBySlowest(const std::vector<FileCounts>& reduced) {
  AggregatePerformance perf;
  std::map<std::int64_t, double> unique_time;  // per rank
  double shared_time = 0;
  for (const FileCounts& record : reduced) {
    perf.bytes += record.counts.bytes_read + record.counts.bytes_written;
    if (record.rank < 0) {
      shared_time += record.counts.slowest_rank_time;
    } else {
      unique_time[record.rank] += record.counts.io_time();
    }
  }
  double slowest_unique = 0;
  for (const auto& [rank, time] : unique_time) slowest_unique = std::max(slowest_unique, time);
  perf.time_by_slowest = slowest_unique + shared_time;
  if (perf.time_by_slowest > 0) {
    perf.MiB_per_second = static_cast<double>(perf.bytes) / 1048576.0 / perf.time_by_slowest;
  }
  return perf;
}

}  // namespace dlbench::storage
