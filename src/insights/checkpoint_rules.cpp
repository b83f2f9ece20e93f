// The rules on where the run's time went besides reading: checkpoint_stall, drain_backlog,
// eval_dominates.
#include <cmath>

#include "insights/rules.h"
#include "insights/thresholds.h"
#include "util/sink.h"

namespace dlbench::insights {

std::optional<Finding> CheckpointStall(const RunFacts& facts) {
  if (!facts.checkpoint_stall_seconds || !facts.train_read_seconds) return std::nullopt;
  const double stall = *facts.checkpoint_stall_seconds;
  const double total = *facts.train_read_seconds + stall;
  if (total <= 0) return std::nullopt;
  const double share = stall / total;
  if (share < kStallShare) return std::nullopt;
  Finding f;
  f.id = "checkpoint_stall";
  f.severity = share >= kStallHighShare ? Severity::kHigh : Severity::kWarning;
  f.message = sink::Format(
      "Checkpoints blocked training for %.3f s, %.0f %% of the training time (%llu saves).", stall,
      100 * share, static_cast<unsigned long long>(facts.saves));
  f.evidence.push_back({"metric.checkpoint_stall_seconds / (train_read_seconds + it)", 100 * share,
                        "%", 100 * kStallShare, ">="});
  f.evidence.push_back({"metric.checkpoint_stall_seconds", stall, "s", {}, ""});
  f.suggestion = facts.drained
                     ? "Give the burst buffer a faster tier or more slots "
                       "(checkpoint.burst_buffer.max_pending_checkpoints), or checkpoint less "
                       "often (checkpoint.steps_between_checkpoints)."
                     : "Write checkpoints to a fast tier and drain them in the background "
                       "(checkpoint.burst_buffer), or checkpoint less often "
                       "(checkpoint.steps_between_checkpoints).";
  return f;
}

std::optional<Finding> DrainBacklog(const RunFacts& facts) {
  if (!facts.drained || facts.saves == 0 || !facts.stall_mean_seconds ||
      !facts.time_to_durable_mean_seconds) {
    return std::nullopt;
  }
  const double drain = *facts.time_to_durable_mean_seconds - *facts.stall_mean_seconds;
  // Saves arrive once per interval: training's time between them; back to back without training
  // (checkpoint-only runs), where any drain slower than the write falls behind by design, so
  // only a buffer that filled (backpressure) is a finding there.
  const double interval =
      facts.train_read_seconds
          ? (*facts.train_read_seconds + facts.checkpoint_stall_seconds.value_or(0)) /
                static_cast<double>(facts.saves)
          : *facts.stall_mean_seconds;
  const bool waited = facts.backpressure_total_seconds > 0;
  const bool behind = facts.train_read_seconds && drain >= kDrainRatio * interval;
  if (interval <= 0 || (!behind && !waited)) return std::nullopt;
  Finding f;
  f.id = "drain_backlog";
  f.severity = waited ? Severity::kHigh : Severity::kWarning;
  f.message = sink::Format(
      "The burst buffer drains a checkpoint in %.3f s but one arrives every %.3f s, so drains "
      "fall behind",
      drain, interval);
  if (waited) {
    f.message += sink::Format("; it was full already: saves waited %.3f s for room.",
                              facts.backpressure_total_seconds);
  } else if (facts.burst_buffer_slots && drain > interval) {
    // Each save leaves 1 - interval/drain of a checkpoint more pending than the one before.
    const double saves = std::ceil(*facts.burst_buffer_slots / (1 - interval / drain));
    f.message += sink::Format("; its %d slots fill after about %.0f saves (%.0f s of training).",
                              *facts.burst_buffer_slots, saves, saves * interval);
  } else {
    f.message += ".";
  }
  f.evidence.push_back({"drain time (time_to_durable - stall, mean) / interval between saves",
                        drain / interval, "ratio", kDrainRatio, ">="});
  f.evidence.push_back({"metric.checkpoint_backpressure_total_seconds",
                        facts.backpressure_total_seconds, "s", 0, ">"});
  f.suggestion =
      "Drain faster (checkpoint.burst_buffer.drain_threads, a faster capacity tier), checkpoint "
      "less often (checkpoint.steps_between_checkpoints), or give the burst buffer more room "
      "(max_pending_checkpoints, the tier's capacity).";
  return f;
}

std::optional<Finding> EvalDominates(const RunFacts& facts) {
  if (!facts.eval_read_seconds || !facts.train_read_seconds) return std::nullopt;
  const double total = *facts.train_read_seconds + *facts.eval_read_seconds;
  if (total <= 0) return std::nullopt;
  const double share = *facts.eval_read_seconds / total;
  if (share < kEvalShare) return std::nullopt;
  Finding f;
  f.id = "eval_dominates";
  f.severity = Severity::kWarning;
  f.message = sink::Format(
      "Evaluation took %.0f %% of the time of training and evaluation (%.3f s of %.3f s): the run "
      "measures evaluation more than training.",
      100 * share, *facts.eval_read_seconds, total);
  f.evidence.push_back({"metric.eval_read_seconds / (train_read_seconds + eval_read_seconds)",
                        100 * share, "%", 100 * kEvalShare, ">="});
  f.suggestion =
      "Evaluate less often (evaluation.epochs_between_evals) or on fewer files "
      "(dataset.num_files_eval), or check evaluation.eval_time.";
  return f;
}

}  // namespace dlbench::insights
