// ReduceRun / ReduceGeneration: RankValues are flattened into one vector of integers (shape,
// bytes, flags) and one of doubles (times, rates), gathered, and decoded per rank.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "metrics/cross_rank.h"
#include "metrics/run_reduction.h"
#include "util/error.h"

namespace dlbench::metrics {
namespace {

struct Flat {
  std::vector<std::uint64_t> ints;
  std::vector<double> reals;
};

void EncodeOptional(Flat& flat, const std::optional<double>& value) {
  flat.ints.push_back(value ? 1 : 0);
  flat.reals.push_back(value.value_or(0.0));
}

void EncodePhase(Flat& flat, const RankValues::Phase& phase) {
  flat.reals.push_back(phase.au_percent);
  flat.reals.push_back(phase.dlio_samples_per_second);
  EncodeOptional(flat, phase.exact_samples_per_second);
  flat.ints.push_back(phase.blocks.size());
  for (const RankValues::Block& block : phase.blocks) {
    flat.reals.push_back(block.start);
    flat.reals.push_back(block.end);
    flat.ints.push_back(block.read_bytes);
    flat.ints.push_back(block.nominal_bytes);
    flat.ints.push_back(block.decoded_bytes);
  }
  for (Seconds StepBreakdown::*field : kBreakdownSeconds)
    flat.reals.push_back(phase.breakdown.*field);
  for (double StepBreakdown::*field : kBreakdownPoints)
    flat.reals.push_back(phase.breakdown.*field);
  flat.ints.push_back(phase.breakdown.measured_steps);
}

Flat Encode(const RankValues& values) {
  Flat flat;
  flat.ints.push_back(values.epochs.size());
  for (const RankValues::Epoch& epoch : values.epochs) {
    flat.ints.push_back(static_cast<std::uint64_t>(epoch.number));
    EncodePhase(flat, epoch.train);
    flat.ints.push_back(epoch.eval ? 1 : 0);
    if (epoch.eval) EncodePhase(flat, *epoch.eval);
  }
  flat.ints.push_back(values.checkpoints.size());
  for (const CheckpointRecord& c : values.checkpoints) {
    flat.ints.push_back(c.kind == CheckpointKind::kSave ? 0 : 1);
    flat.ints.push_back(static_cast<std::uint64_t>(c.epoch));
    flat.ints.push_back(static_cast<std::uint64_t>(c.number));
    flat.ints.push_back(c.bytes);
    flat.ints.push_back(c.drained_bytes);
    flat.reals.push_back(c.start);
    flat.reals.push_back(c.end);
    flat.reals.push_back(c.backpressure);
    EncodeOptional(flat, c.drain_start);
    EncodeOptional(flat, c.drain_end);
  }
  return flat;
}

// Reads one rank's segment of the gathered vectors.
class Decoder {
 public:
  Decoder(const std::uint64_t* ints, std::size_t int_count, const double* reals,
          std::size_t real_count)
      : ints_(ints), int_count_(int_count), reals_(reals), real_count_(real_count) {}

  std::uint64_t integer() {
    if (int_pos_ >= int_count_) Corrupt();
    return ints_[int_pos_++];
  }
  double real() {
    if (real_pos_ >= real_count_) Corrupt();
    return reals_[real_pos_++];
  }
  std::optional<double> optional() {
    const bool present = integer() != 0;
    const double value = real();
    return present ? std::optional<double>(value) : std::nullopt;
  }

  RankValues::Phase phase() {
    RankValues::Phase phase;
    phase.au_percent = real();
    phase.dlio_samples_per_second = real();
    phase.exact_samples_per_second = optional();
    const std::uint64_t blocks = integer();
    for (std::uint64_t b = 0; b < blocks; ++b) {
      RankValues::Block block;
      block.start = real();
      block.end = real();
      block.read_bytes = integer();
      block.nominal_bytes = integer();
      block.decoded_bytes = integer();
      phase.blocks.push_back(block);
    }
    for (Seconds StepBreakdown::*field : kBreakdownSeconds) phase.breakdown.*field = real();
    for (double StepBreakdown::*field : kBreakdownPoints) phase.breakdown.*field = real();
    phase.breakdown.measured_steps = integer();
    return phase;
  }

  RankValues values() {
    RankValues values;
    const std::uint64_t epochs = integer();
    for (std::uint64_t e = 0; e < epochs; ++e) {
      RankValues::Epoch epoch;
      epoch.number = static_cast<int>(integer());
      epoch.train = phase();
      if (integer() != 0) epoch.eval = phase();
      values.epochs.push_back(std::move(epoch));
    }
    const std::uint64_t checkpoints = integer();
    for (std::uint64_t i = 0; i < checkpoints; ++i) {
      CheckpointRecord c;
      c.kind = integer() == 0 ? CheckpointKind::kSave : CheckpointKind::kLoad;
      c.epoch = static_cast<int>(integer());
      c.number = static_cast<int>(integer());
      c.bytes = integer();
      c.drained_bytes = integer();
      c.start = real();
      c.end = real();
      c.backpressure = real();
      c.drain_start = optional();
      c.drain_end = optional();
      values.checkpoints.push_back(c);
    }
    return values;
  }

 private:
  [[noreturn]] static void Corrupt() {
    throw InternalError("metrics: gathered per-rank values are shorter than their shape says");
  }

  const std::uint64_t* ints_;
  std::size_t int_count_;
  const double* reals_;
  std::size_t real_count_;
  std::size_t int_pos_ = 0;
  std::size_t real_pos_ = 0;
};

}  // namespace

RunMetrics ReduceRun(const mpi::Communicator& comm, const RankRecord& record,
                     const RankLatencies& latencies, const RunSettings& settings, RunInfo info,
                     double au_expectation, double record_length_bytes) {
  const Flat mine = Encode(SummarizeRank(record, settings));
  const std::vector<std::uint64_t> ints = GatherEqualLength(comm, mine.ints);
  const std::vector<double> reals = GatherEqualLength(comm, mine.reals);
  std::vector<RankValues> ranks;
  for (std::size_t r = 0; r < static_cast<std::size_t>(comm.size()); ++r) {
    Decoder decoder(ints.data() + r * mine.ints.size(), mine.ints.size(),
                    reals.data() + r * mine.reals.size(), mine.reals.size());
    ranks.push_back(decoder.values());
  }
  RunMetrics run;
  run.info = std::move(info);
  run.au_expectation = au_expectation;
  run.record_length_bytes = record_length_bytes;
  run.train = CombineTrain(ranks, ReduceHistogram(comm, latencies.train_sample_read),
                           ReduceHistogram(comm, TrainBatchWaits(record)));
  run.eval = CombineEval(ranks, ReduceHistogram(comm, latencies.eval_sample_read),
                         ReduceHistogram(comm, EvalBatchWaits(record)));
  run.checkpoint = CombineCheckpoints(ranks, settings.checkpoint_size_GiB);
  return run;
}

GenerationMetrics ReduceGeneration(const mpi::Communicator& comm, const GenerationRank& mine) {
  const std::vector<double> starts = comm.all_gather(mine.start);
  const std::vector<double> ends = comm.all_gather(mine.end);
  const std::vector<std::uint64_t> bytes = comm.all_gather(std::uint64_t{mine.bytes});
  const std::vector<std::uint64_t> files = comm.all_gather(std::uint64_t{mine.files});
  GenerationMetrics metrics;
  for (std::size_t r = 0; r < starts.size(); ++r) {
    metrics.ranks.push_back({starts[r], ends[r], bytes[r], files[r]});
  }
  return metrics;
}

}  // namespace dlbench::metrics
