#include "metrics/run_reduction.h"

#include <algorithm>
#include <string>

#include "metrics/throughput.h"
#include "util/error.h"

namespace dlbench::metrics {
namespace {

RankValues::Block BlockValues(const BlockRecord& block) {
  RankValues::Block values{block.start, block.end, 0, 0, 0};
  for (const StepRecord& step : block.steps) {
    values.read_bytes += step.read_bytes;
    values.nominal_bytes += step.nominal_bytes;
    values.decoded_bytes += step.decoded_bytes;
  }
  return values;
}

[[noreturn]] void Mismatch(const std::string& what) {
  throw InternalError("metrics: ranks recorded different " + what +
                      "; cannot reduce them together");
}

const RankValues::Phase* PhaseOf(const RankValues::Epoch& epoch, bool eval) {
  if (!eval) return &epoch.train;
  return epoch.eval ? &*epoch.eval : nullptr;
}

std::optional<PhaseMetrics> Combine(const std::vector<RankValues>& ranks, bool eval,
                                    const LatencyHistogram& sample_read,
                                    const LatencyHistogram& batch_wait) {
  if (ranks.empty()) return std::nullopt;
  const std::size_t epochs = ranks[0].epochs.size();
  for (const RankValues& rank : ranks) {
    if (rank.epochs.size() != epochs) Mismatch("numbers of epochs");
  }
  PhaseMetrics metrics;
  for (std::size_t e = 0; e < epochs; ++e) {
    const RankValues::Phase* first = PhaseOf(ranks[0].epochs[e], eval);
    if (first == nullptr) {
      for (const RankValues& rank : ranks) {
        if (PhaseOf(rank.epochs[e], eval) != nullptr) Mismatch("evaluation epochs");
      }
      continue;
    }
    PhaseEpoch out;
    out.epoch = ranks[0].epochs[e].number;
    out.au_min_percent = first->au_percent;
    out.au_max_percent = first->au_percent;
    double au_sum = 0;
    double exact_sum = 0;
    bool exact_everywhere = true;
    std::vector<const RankValues::Phase*> phases;
    std::vector<StepBreakdown> breakdowns;
    for (const RankValues& rank : ranks) {
      const RankValues::Phase* phase = PhaseOf(rank.epochs[e], eval);
      if (phase == nullptr) Mismatch("evaluation epochs");
      phases.push_back(phase);
      breakdowns.push_back(phase->breakdown);
      if (phase->blocks.size() != first->blocks.size()) Mismatch("numbers of blocks");
      au_sum += phase->au_percent;
      out.au_min_percent = std::min(out.au_min_percent, phase->au_percent);
      out.au_max_percent = std::max(out.au_max_percent, phase->au_percent);
      out.dlio_samples_per_second += phase->dlio_samples_per_second;
      if (phase->exact_samples_per_second) {
        exact_sum += *phase->exact_samples_per_second;
      } else {
        exact_everywhere = false;
      }
    }
    out.au_percent = au_sum / static_cast<double>(ranks.size());
    if (exact_everywhere) out.exact_samples_per_second = exact_sum;
    out.breakdown = MeanOf(breakdowns);
    for (std::size_t b = 0; b < first->blocks.size(); ++b) {
      std::vector<Seconds> starts, ends;
      for (const RankValues::Phase* phase : phases) {
        const RankValues::Block& block = phase->blocks[b];
        starts.push_back(block.start);
        ends.push_back(block.end);
        out.read_bytes += block.read_bytes;
        out.nominal_bytes += block.nominal_bytes;
        out.decoded_bytes += block.decoded_bytes;
      }
      out.read_spans.push_back(SpanOf(starts, ends));
    }
    metrics.epochs.push_back(out);
  }
  if (metrics.epochs.empty()) return std::nullopt;
  metrics.sample_read_latency = sample_read.summary();
  metrics.batch_wait = batch_wait.summary();
  return metrics;
}

LatencyHistogram BatchWaits(const RankRecord& record, bool eval) {
  LatencyHistogram histogram;
  for (const EpochRecord& epoch : record.epochs) {
    if (eval) {
      if (epoch.eval) {
        for (const StepRecord& step : epoch.eval->steps) histogram.record(step.load);
      }
      continue;
    }
    for (const BlockRecord& block : epoch.blocks) {
      for (const StepRecord& step : block.steps) histogram.record(step.load);
    }
  }
  return histogram;
}

CheckpointOp CombineOp(const std::vector<RankValues>& ranks, std::size_t index,
                       double nominal_size_GiB) {
  const CheckpointRecord& first = ranks[0].checkpoints[index];
  std::vector<Seconds> starts, ends, drain_starts, drain_ends;
  std::vector<Bytes> bytes;
  CheckpointOp op;
  op.epoch = first.epoch;
  op.number = first.number;
  op.rank0_duration = first.duration();
  Seconds durable = first.durable_at();
  for (const RankValues& rank : ranks) {
    const CheckpointRecord& record = rank.checkpoints[index];
    if (record.kind != first.kind || record.number != first.number || record.epoch != first.epoch) {
      Mismatch("checkpoint sequences");
    }
    starts.push_back(record.start);
    ends.push_back(record.end);
    bytes.push_back(record.bytes);
    durable = std::max(durable, record.durable_at());
    op.backpressure = std::max(op.backpressure, record.backpressure);
    if (record.drain_start && record.drain_end) {
      drain_starts.push_back(*record.drain_start);
      drain_ends.push_back(*record.drain_end);
      op.drained_bytes += record.drained_bytes;
    }
  }
  op.io = ReduceCheckpointOp(starts, ends, bytes, nominal_size_GiB);
  if (!drain_starts.empty()) op.drain = SpanOf(drain_starts, drain_ends);
  op.time_to_durable = durable - *std::min_element(starts.begin(), starts.end());
  return op;
}

}  // namespace

RankValues SummarizeRank(const RankRecord& record, const RunSettings& settings) {
  RankValues values;
  for (const EpochRecord& epoch : record.epochs) {
    RankValues::Epoch out;
    out.number = epoch.number;
    out.train.au_percent = EpochAuPercent(epoch, settings.steps_per_epoch, settings.exclusion);
    const EpochThroughput throughput = EpochTrainThroughput(
        epoch, settings.steps_per_epoch, settings.exclusion, settings.batch_size);
    out.train.dlio_samples_per_second = throughput.dlio_samples_per_second;
    out.train.exact_samples_per_second = throughput.exact_samples_per_second;
    for (const BlockRecord& block : epoch.blocks) out.train.blocks.push_back(BlockValues(block));
    out.train.breakdown = BreakDownEpoch(epoch, settings.steps_per_epoch, settings.exclusion);
    if (epoch.eval) {
      const EvalResult eval = MeasureEval(*epoch.eval, settings.eval_steps_per_epoch,
                                          settings.exclusion, settings.eval_batch_size);
      out.eval = RankValues::Phase{
          eval.au_percent,
          eval.dlio_samples_per_second,
          eval.exact_samples_per_second,
          {BlockValues(*epoch.eval)},
          BreakDownBlock(*epoch.eval, settings.eval_steps_per_epoch, settings.exclusion)};
    }
    values.epochs.push_back(std::move(out));
  }
  values.checkpoints = record.checkpoints;
  return values;
}

LatencyHistogram TrainBatchWaits(const RankRecord& record) { return BatchWaits(record, false); }
LatencyHistogram EvalBatchWaits(const RankRecord& record) { return BatchWaits(record, true); }

std::optional<PhaseMetrics> CombineTrain(const std::vector<RankValues>& ranks,
                                         const LatencyHistogram& sample_read,
                                         const LatencyHistogram& batch_wait) {
  return Combine(ranks, false, sample_read, batch_wait);
}

std::optional<PhaseMetrics> CombineEval(const std::vector<RankValues>& ranks,
                                        const LatencyHistogram& sample_read,
                                        const LatencyHistogram& batch_wait) {
  return Combine(ranks, true, sample_read, batch_wait);
}

std::optional<CheckpointMetrics> CombineCheckpoints(const std::vector<RankValues>& ranks,
                                                    double nominal_size_GiB) {
  if (ranks.empty() || ranks[0].checkpoints.empty()) {
    for (const RankValues& rank : ranks) {
      if (!rank.checkpoints.empty()) Mismatch("numbers of checkpoints");
    }
    return std::nullopt;
  }
  CheckpointMetrics metrics;
  metrics.nominal_size_GiB = nominal_size_GiB;
  for (const RankValues& rank : ranks) {
    if (rank.checkpoints.size() != ranks[0].checkpoints.size()) {
      Mismatch("numbers of checkpoints");
    }
  }
  for (std::size_t i = 0; i < ranks[0].checkpoints.size(); ++i) {
    CheckpointOp op = CombineOp(ranks, i, nominal_size_GiB);
    if (ranks[0].checkpoints[i].kind == CheckpointKind::kSave) {
      metrics.saves.push_back(op);
    } else {
      metrics.loads.push_back(op);
    }
  }
  return metrics;
}

}  // namespace dlbench::metrics
