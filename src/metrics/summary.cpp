#include "metrics/summary.h"

#include <algorithm>
#include <cmath>

#include "metrics/statistics.h"
#include "metrics/throughput.h"
#include "util/error.h"

namespace dlbench::metrics {
namespace {

void SetMeanStdev(Json& metric, const std::string& mean_key, const std::string& stdev_key,
                  const std::vector<double>& values, double scale = 1.0) {
  if (values.empty()) return;
  const MeanStdev stats = PopulationMeanStdev(values);
  SetNumber(metric, mean_key, stats.mean * scale);
  SetNumber(metric, stdev_key, stats.stdev * scale);
}

void SetPercentiles(Json& metric, const std::string& prefix,
                    const std::optional<Percentiles>& percentiles) {
  if (!percentiles) return;
  metric[prefix + "_count"] = percentiles->count;
  SetNumber(metric, prefix + "_p50_seconds", percentiles->p50);
  SetNumber(metric, prefix + "_p90_seconds", percentiles->p90);
  SetNumber(metric, prefix + "_p99_seconds", percentiles->p99);
  SetNumber(metric, prefix + "_max_seconds", percentiles->max);
}

// The per-epoch lists of the step breakdown (step_breakdown.h), mean over ranks: seconds per
// epoch, then the AU points each term cost.
void AddBreakdown(Json& metric, const std::string& p, const std::vector<PhaseEpoch>& epochs) {
  const auto add = [&](const std::string& key, auto field) {
    std::vector<double> values;
    for (const PhaseEpoch& epoch : epochs) values.push_back(epoch.breakdown.*field);
    SetList(metric, p + key, values);
  };
  add("_first_batch_wait_seconds", &StepBreakdown::first_batch_wait);
  add("_load_wait_seconds", &StepBreakdown::load_wait);
  add("_compute_overshoot_seconds", &StepBreakdown::compute_overshoot);
  add("_barrier_skew_seconds", &StepBreakdown::barrier_skew);
  add("_barrier_latency_seconds", &StepBreakdown::barrier_latency);
  add("_step_other_seconds", &StepBreakdown::other);
  std::vector<std::uint64_t> measured;
  for (const PhaseEpoch& epoch : epochs) measured.push_back(epoch.breakdown.measured_steps);
  metric[p + "_au_measured_steps"] = measured;
  // An epoch without a measured step has no AU to lose: its points would be of the time the
  // exclusions left over. As for the exact throughput, the lists are left out, not partial.
  if (std::find(measured.begin(), measured.end(), 0) != measured.end()) return;
  add("_au_loss_load_percentage", &StepBreakdown::load_points);
  add("_au_loss_barrier_skew_percentage", &StepBreakdown::barrier_skew_points);
  add("_au_loss_barrier_latency_percentage", &StepBreakdown::barrier_latency_points);
  add("_au_loss_other_percentage", &StepBreakdown::other_points);
}

// The train_* or eval_* fields: DLIO's first, in DLIO's order, then dlbench's.
void AddPhase(Json& metric, const std::string& p, const PhaseMetrics& phase,
              const RunMetrics& run) {
  std::vector<double> au, au_min, au_max, dlio, exact;
  bool exact_everywhere = true;
  Bytes read_bytes = 0, nominal_bytes = 0, decoded_bytes = 0;
  std::vector<Span> read_spans;
  for (const PhaseEpoch& epoch : phase.epochs) {
    au.push_back(epoch.au_percent);
    au_min.push_back(epoch.au_min_percent);
    au_max.push_back(epoch.au_max_percent);
    dlio.push_back(epoch.dlio_samples_per_second);
    if (epoch.exact_samples_per_second) {
      exact.push_back(*epoch.exact_samples_per_second);
    } else {
      exact_everywhere = false;
    }
    read_bytes += epoch.read_bytes;
    nominal_bytes += epoch.nominal_bytes;
    decoded_bytes += epoch.decoded_bytes;
    read_spans.insert(read_spans.end(), epoch.read_spans.begin(), epoch.read_spans.end());
  }
  const Seconds read_seconds = CoveredSeconds(std::move(read_spans));
  if (au.empty()) return;
  const double mib_per_sample = run.record_length_bytes / static_cast<double>(MiB);

  SetList(metric, p + "_au_percentage", au);
  SetMeanStdev(metric, p + "_au_mean_percentage", p + "_au_stdev_percentage", au);
  metric[p + "_au_meet_expectation"] =
      PopulationMeanStdev(au).mean >= 100.0 * run.au_expectation ? "success" : "fail";
  SetList(metric, p + "_throughput_samples_per_second", dlio);
  SetMeanStdev(metric, p + "_throughput_mean_samples_per_second",
               p + "_throughput_stdev_samples_per_second", dlio);
  SetMeanStdev(metric, p + "_io_mean_MB_per_second", p + "_io_stdev_MB_per_second", dlio,
               mib_per_sample);

  // dlbench's own.
  SetList(metric, p + "_au_min_percentage", au_min);
  SetList(metric, p + "_au_max_percentage", au_max);
  if (exact_everywhere) {
    SetList(metric, p + "_throughput_samples_per_second_exact", exact);
    SetMeanStdev(metric, p + "_throughput_mean_samples_per_second_exact",
                 p + "_throughput_stdev_samples_per_second_exact", exact);
  }
  metric[p + "_read_bytes"] = read_bytes;
  metric[p + "_nominal_bytes"] = nominal_bytes;
  metric[p + "_decoded_bytes"] = decoded_bytes;
  SetNumber(metric, p + "_read_seconds", read_seconds);
  SetNumber(metric, p + "_read_MiB_per_second", MiBPerSecond(read_bytes, read_seconds));
  SetNumber(metric, p + "_read_GB_per_second", GBPerSecond(read_bytes, read_seconds));
  SetPercentiles(metric, p + "_sample_read_latency", phase.sample_read_latency);
  SetPercentiles(metric, p + "_batch_wait", phase.batch_wait);
  AddBreakdown(metric, p, phase.epochs);
}

// DLIO's rank-0 fields for saves or loads, then dlbench's reductions over ranks.
void AddCheckpointOps(Json& metric, const std::string& p, const std::vector<CheckpointOp>& ops,
                      double nominal_GiB) {
  if (ops.empty()) return;
  std::vector<double> rank0_durations, rank0_rates, duration_max, throughput_min, rates, rank_min,
      rank_mean, rank_max;
  Bytes bytes = 0;
  bool rates_everywhere = true;
  for (const CheckpointOp& op : ops) {
    rank0_durations.push_back(op.rank0_duration);
    if (op.rank0_duration > 0) rank0_rates.push_back(nominal_GiB / op.rank0_duration);
    duration_max.push_back(op.io.duration_max);
    if (op.io.throughput_min_GiB_per_second && op.io.GiB_per_second) {
      throughput_min.push_back(*op.io.throughput_min_GiB_per_second);
      rates.push_back(*op.io.GiB_per_second);
    } else {
      rates_everywhere = false;
    }
    rank_min.push_back(op.io.rank_duration.min);
    rank_mean.push_back(op.io.rank_duration.mean);
    rank_max.push_back(op.io.rank_duration.max);
    bytes += op.io.total_bytes;
  }
  if (rank0_rates.size() == ops.size()) {
    SetMeanStdev(metric, p + "_checkpoint_io_mean_GB_per_second",
                 p + "_checkpoint_io_stdev_GB_per_second", rank0_rates);
  }
  SetMeanStdev(metric, p + "_checkpoint_duration_mean_seconds",
               p + "_checkpoint_duration_stdev_seconds", rank0_durations);

  SetList(metric, p + "_checkpoint_duration_max_seconds", duration_max);
  if (rates_everywhere) {
    SetList(metric, p + "_checkpoint_throughput_min_GiB_per_second", throughput_min);
    SetList(metric, p + "_checkpoint_GiB_per_second", rates);
  }
  SetList(metric, p + "_checkpoint_rank_duration_min_seconds", rank_min);
  SetList(metric, p + "_checkpoint_rank_duration_mean_seconds", rank_mean);
  SetList(metric, p + "_checkpoint_rank_duration_max_seconds", rank_max);
  metric[p + "_checkpoint_bytes"] = bytes;
}

// Trainer stall, fast-tier write rate, drain rate and time to durable, over all saves.
void AddSaveTimeline(Json& metric, const std::vector<CheckpointOp>& saves) {
  if (saves.empty()) return;
  std::vector<double> stalls, durable, backpressure;
  Bytes written = 0, drained = 0;
  Seconds stall_total = 0, drain_total = 0, backpressure_total = 0;
  for (const CheckpointOp& save : saves) {
    stalls.push_back(save.io.duration_max);
    backpressure.push_back(save.backpressure);
    backpressure_total += save.backpressure;
    durable.push_back(save.time_to_durable);
    written += save.io.total_bytes;
    stall_total += save.io.duration_max;
    if (save.drain) {
      drained += save.drained_bytes;
      drain_total += save.drain->duration();
    }
  }
  metric["checkpoint_bytes_written"] = written;
  SetNumber(metric, "checkpoint_stall_mean_seconds", PopulationMeanStdev(stalls).mean);
  SetNumber(metric, "checkpoint_stall_max_seconds",
            *std::max_element(stalls.begin(), stalls.end()));
  SetNumber(metric, "checkpoint_write_GiB_per_second", GiBPerSecond(written, stall_total));
  if (drain_total > 0) {
    metric["checkpoint_drained_bytes"] = drained;
    SetNumber(metric, "checkpoint_drain_GiB_per_second", GiBPerSecond(drained, drain_total));
    // Burst buffer: the part of each stall spent waiting for room on the fast tier.
    SetList(metric, "checkpoint_backpressure_seconds", backpressure);
    SetNumber(metric, "checkpoint_backpressure_total_seconds", backpressure_total);
  }
  SetNumber(metric, "checkpoint_time_to_durable_mean_seconds", PopulationMeanStdev(durable).mean);
  SetNumber(metric, "checkpoint_time_to_durable_max_seconds",
            *std::max_element(durable.begin(), durable.end()));
}

}  // namespace

Json BuildSummaryHeader(const RunInfo& info) {
  Json summary;
  summary["start"] = info.start;
  summary["end"] = info.end;
  summary["num_accelerators"] = info.num_accelerators;
  summary["num_hosts"] = info.num_hosts;
  summary["hostname"] = info.hostname;
  summary["num_files_train"] = info.num_files_train;
  summary["num_files_eval"] = info.num_files_eval;
  summary["num_samples_per_file"] = info.num_samples_per_file;
  summary["host_cpu_count"] = info.host_cpu_count;
  summary["host_processor_name"] = info.host_processor_name;
  summary["host_memory_GB"] = Json::array();
  for (double gib : info.host_memory_GiB) {
    if (std::isfinite(gib)) summary["host_memory_GB"].push_back(gib);
  }
  summary["host_cpuinfo"] = StringMap(info.host_cpuinfo);
  summary["host_meminfo"] = StringMap(info.host_meminfo);
  SetNumber(summary, "data_size_per_host_GB", info.data_size_per_host_GiB);
  summary["potential_caching"] = info.potential_caching;
  if (!info.storage_type.empty()) summary["storage_type"] = info.storage_type;
  if (!info.storage_library.empty()) summary["storage_library"] = info.storage_library;
  return summary;
}

Json BuildSummary(const RunMetrics& run) {
  Json summary = BuildSummaryHeader(run.info);
  summary["epochs"] = run.train ? run.train->epochs.size() : 0;

  Json metric = Json::object();
  if (run.train) AddPhase(metric, "train", *run.train, run);
  if (run.eval) AddPhase(metric, "eval", *run.eval, run);
  if (run.checkpoint) {
    const CheckpointMetrics& checkpoint = *run.checkpoint;
    AddCheckpointOps(metric, "save", checkpoint.saves, checkpoint.nominal_size_GiB);
    AddCheckpointOps(metric, "load", checkpoint.loads, checkpoint.nominal_size_GiB);
    SetNumber(metric, "checkpoint_size_GB", checkpoint.nominal_size_GiB);
    AddSaveTimeline(metric, checkpoint.saves);
  }
  summary["metric"] = std::move(metric);
  return summary;
}

double DataSizePerHostGiB(int ranks_per_node, int ranks, std::uint64_t samples_per_file,
                          std::uint64_t files_train, double record_length_bytes) {
  if (ranks <= 0) {
    throw InternalError("metrics: data size per host for " + std::to_string(ranks) + " ranks");
  }
  // Python's left-to-right evaluation: (npernode * spf * N_t) // P, then * record_length.
  const std::uint64_t samples = static_cast<std::uint64_t>(ranks_per_node) * samples_per_file *
                                files_train / static_cast<std::uint64_t>(ranks);
  return static_cast<double>(samples) * record_length_bytes / static_cast<double>(GiB);
}

}  // namespace dlbench::metrics
