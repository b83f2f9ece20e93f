#include "metrics/cross_rank.h"

#include <algorithm>
#include <fstream>
#include <numeric>
#include <string>

#include "metrics/clock.h"
#include "metrics/throughput.h"
#include "util/error.h"

namespace dlbench::metrics {

Span SpanOf(const std::vector<Seconds>& starts, const std::vector<Seconds>& ends) {
  if (starts.empty() || starts.size() != ends.size()) {
    throw InternalError("metrics: span over " + std::to_string(starts.size()) + " starts and " +
                        std::to_string(ends.size()) + " ends");
  }
  return {*std::min_element(starts.begin(), starts.end()),
          *std::max_element(ends.begin(), ends.end())};
}

Seconds CoveredSeconds(std::vector<Span> spans) {
  std::sort(spans.begin(), spans.end(),
            [](const Span& a, const Span& b) { return a.start < b.start; });
  Seconds covered = 0;
  std::optional<Span> run;  // the union of the spans so far that still reaches the next
  for (const Span& span : spans) {
    if (run && span.start <= run->end) {
      run->end = std::max(run->end, span.end);
      continue;
    }
    if (run) covered += run->duration();
    run = span;
  }
  return run ? covered + run->duration() : covered;
}

std::optional<Spread> SpreadOf(const std::vector<double>& values) {
  if (values.empty()) return std::nullopt;
  const auto [low, high] = std::minmax_element(values.begin(), values.end());
  const double sum = std::accumulate(values.begin(), values.end(), 0.0);
  return Spread{*low, sum / static_cast<double>(values.size()), *high};
}

CheckpointOpReduction ReduceCheckpointOp(const std::vector<Seconds>& starts,
                                         const std::vector<Seconds>& ends,
                                         const std::vector<Bytes>& bytes, double nominal_size_GiB) {
  const Span span = SpanOf(starts, ends);
  if (bytes.size() != starts.size()) {
    throw InternalError("metrics: checkpoint bytes for " + std::to_string(bytes.size()) +
                        " ranks, times for " + std::to_string(starts.size()));
  }
  std::vector<double> durations(starts.size());
  for (std::size_t r = 0; r < starts.size(); ++r) durations[r] = ends[r] - starts[r];
  CheckpointOpReduction result;
  result.span = span.duration();
  result.rank_duration = *SpreadOf(durations);
  result.duration_max = result.rank_duration.max;
  result.total_bytes = std::accumulate(bytes.begin(), bytes.end(), Bytes{0});
  if (result.rank_duration.min > 0) {
    result.throughput_min_GiB_per_second = nominal_size_GiB / result.duration_max;
  }
  result.GiB_per_second = GiBPerSecond(result.total_bytes, result.duration_max);
  return result;
}

Seconds OriginAmong(std::size_t rank, const std::vector<std::uint64_t>& clock_ids,
                    const std::vector<Seconds>& barrier_exits) {
  if (rank >= clock_ids.size() || clock_ids.size() != barrier_exits.size()) {
    throw InternalError("metrics: origin of rank " + std::to_string(rank) + " among " +
                        std::to_string(clock_ids.size()) + " clock ids and " +
                        std::to_string(barrier_exits.size()) + " times");
  }
  if (clock_ids[rank] == 0) return barrier_exits[rank];
  for (std::size_t r = 0; r < rank; ++r) {
    if (clock_ids[r] == clock_ids[rank]) return barrier_exits[r];
  }
  return barrier_exits[rank];
}

namespace {

// Calls f on every training step of `record`, in BarrierArrivals' order.
template <typename Record, typename F>
void ForEachTrainingStep(Record& record, F f) {
  for (auto& epoch : record.epochs) {
    for (auto& block : epoch.blocks) {
      for (auto& step : block.steps) f(step);
    }
  }
}

Seconds Arrival(const StepRecord& step) { return step.end - step.barrier; }

}  // namespace

std::vector<Seconds> BarrierArrivals(const RankRecord& record) {
  std::vector<Seconds> arrivals;
  ForEachTrainingStep(record, [&](const StepRecord& step) { arrivals.push_back(Arrival(step)); });
  return arrivals;
}

void SetBarrierSkew(RankRecord& record, const std::vector<Seconds>& last_arrivals) {
  const std::size_t steps = BarrierArrivals(record).size();
  if (steps != last_arrivals.size()) {
    throw InternalError("metrics: " + std::to_string(last_arrivals.size()) +
                        " barrier arrivals for " + std::to_string(steps) + " steps");
  }
  std::size_t i = 0;
  ForEachTrainingStep(record, [&](StepRecord& step) {
    step.barrier_skew = std::clamp(last_arrivals[i++] - Arrival(step), 0.0, step.barrier);
  });
}

namespace {

// FNV-1a of this kernel's boot id (one per boot, shared by every process and container on the
// kernel, hence by their CLOCK_MONOTONIC); 0 when it cannot be read.
std::uint64_t MonotonicClockId() {
  std::ifstream in("/proc/sys/kernel/random/boot_id");
  std::string id;
  if (!std::getline(in, id) || id.empty()) return 0;
  std::uint64_t hash = 14695981039346656037ULL;
  for (const char c : id) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 1099511628211ULL;
  }
  return hash == 0 ? 1 : hash;
}

}  // namespace

Seconds SynchronizedOrigin(const mpi::Communicator& comm) {
  const std::vector<std::uint64_t> ids = comm.all_gather(MonotonicClockId());
  comm.barrier();
  const Seconds exit = Now();
  return OriginAmong(static_cast<std::size_t>(comm.rank()), ids, comm.all_gather(exit));
}

void ReduceBarrierSkew(const mpi::Communicator& comm, RankRecord& record) {
  const std::vector<Seconds> arrivals = BarrierArrivals(record);
  const std::uint64_t steps = arrivals.size();
  if (comm.min(steps) != comm.max(steps)) {
    throw InternalError("metrics: ranks recorded different numbers of training steps (rank " +
                        std::to_string(comm.rank()) + ": " + std::to_string(steps) + ")");
  }
  SetBarrierSkew(record, comm.max(arrivals));
}

Span ReduceSpan(const mpi::Communicator& comm, Seconds start, Seconds end) {
  return {comm.min(start), comm.max(end)};
}

Spread ReduceSpread(const mpi::Communicator& comm, double value) {
  return {comm.min(value), comm.sum(value) / comm.size(), comm.max(value)};
}

CheckpointOpReduction ReduceCheckpointOp(const mpi::Communicator& comm, Seconds start, Seconds end,
                                         Bytes bytes, double nominal_size_GiB) {
  return ReduceCheckpointOp(comm.all_gather(start), comm.all_gather(end),
                            comm.all_gather(std::uint64_t{bytes}), nominal_size_GiB);
}

namespace {

template <typename T>
std::vector<T> Gather(const mpi::Communicator& comm, const std::vector<T>& values) {
  const std::uint64_t length = values.size();
  if (comm.min(length) != comm.max(length)) {
    throw InternalError("metrics: ranks gathered vectors of different lengths (rank " +
                        std::to_string(comm.rank()) + " has " + std::to_string(length) +
                        "); the ranks recorded different numbers of epochs, blocks or checkpoints");
  }
  const auto ranks = static_cast<std::size_t>(comm.size());
  std::vector<T> all(ranks * values.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    const std::vector<T> column = comm.all_gather(values[i]);
    for (std::size_t r = 0; r < ranks; ++r) all[r * values.size() + i] = column[r];
  }
  return all;
}

}  // namespace

std::vector<double> GatherEqualLength(const mpi::Communicator& comm,
                                      const std::vector<double>& values) {
  return Gather(comm, values);
}

std::vector<std::uint64_t> GatherEqualLength(const mpi::Communicator& comm,
                                             const std::vector<std::uint64_t>& values) {
  return Gather(comm, values);
}

LatencyHistogram ReduceHistogram(const mpi::Communicator& comm, const LatencyHistogram& mine) {
  // Only the buckets some rank used are summed: latencies span a few decades, so this is a few
  // hundred reductions instead of the full layout's ~1300.
  const std::vector<std::uint64_t>& counts = mine.counts();
  std::uint64_t first = counts.size();
  std::uint64_t last = 0;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    if (counts[i] == 0) continue;
    first = std::min<std::uint64_t>(first, i);
    last = i + 1;
  }
  first = comm.min(first);
  last = comm.max(last);
  std::vector<std::uint64_t> total(counts.size(), 0);
  for (std::uint64_t i = first; i < last; ++i) total[i] = comm.sum(counts[i]);
  return LatencyHistogram::FromCounts(std::move(total), comm.max(mine.max()));
}

}  // namespace dlbench::metrics
