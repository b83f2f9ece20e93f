// The human-readable result table. Values come from BuildSummary so the table and summary.json
// agree; rows whose value is absent are not printed.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "metrics/summary.h"

namespace dlbench::metrics {
namespace {

struct Row {
  std::string name;
  std::string value;
  std::string unit;
};

class Table {
 public:
  explicit Table(const Json& metric) : metric_(metric) {}

  void add(const std::string& name, const std::string& key, const std::string& unit,
           int decimals = 2, double scale = 1.0) {
    if (!metric_.contains(key) || !metric_[key].is_number()) return;
    add_value(name, metric_[key].get<double>() * scale, unit, decimals);
  }
  // The mean of a list field (one value per epoch).
  void add_mean(const std::string& name, const std::string& key, const std::string& unit,
                int decimals = 2, double scale = 1.0) {
    if (!metric_.contains(key) || !metric_[key].is_array() || metric_[key].empty()) return;
    double sum = 0;
    for (const auto& value : metric_[key]) sum += value.get<double>();
    add_value(name, sum / static_cast<double>(metric_[key].size()) * scale, unit, decimals);
  }
  // The value of a number field; NaN when absent.
  double value(const std::string& key) const {
    if (!metric_.contains(key) || !metric_[key].is_number()) return std::nan("");
    return metric_[key].get<double>();
  }
  void add_text(const std::string& name, const std::string& key) {
    if (metric_.contains(key)) rows_.push_back({name, metric_[key].get<std::string>(), ""});
  }
  // True when the list field holds a 0 (an epoch with none of it).
  bool has_zero(const std::string& key) const {
    if (!metric_.contains(key) || !metric_[key].is_array()) return false;
    for (const auto& value : metric_[key]) {
      if (value.is_number() && value.get<double>() == 0.0) return true;
    }
    return false;
  }
  void add_row(const std::string& name, const std::string& value, const std::string& unit) {
    rows_.push_back({name, value, unit});
  }
  void section(const std::string& title) { rows_.push_back({title, "", ""}); }
  void add_value(const std::string& name, double value, const std::string& unit, int decimals) {
    char text[64];
    std::snprintf(text, sizeof(text), "%.*f", decimals, value);
    rows_.push_back({name, text, unit});
  }

  std::string render() const {
    std::size_t name_width = 0, value_width = 0;
    for (const Row& row : rows_) {
      name_width = std::max(name_width, row.name.size());
      value_width = std::max(value_width, row.value.size());
    }
    std::string text;
    for (const Row& row : rows_) {
      if (row.value.empty()) {
        text += row.name + "\n";
        continue;
      }
      text += "  " + row.name + std::string(name_width - row.name.size() + 2, ' ') +
              std::string(value_width - row.value.size(), ' ') + row.value;
      text += row.unit.empty() ? "\n" : "  " + row.unit + "\n";
    }
    return text;
  }

 private:
  const Json& metric_;
  std::vector<Row> rows_;
};

void AddPhase(Table& table, const std::string& p, const std::string& title) {
  table.section(title);
  // When the exclusions (output.metric.exclude_start_steps / exclude_end_steps) cover every step
  // of an epoch, AU measured nothing: DLIO's 0 % and "fail" (kept in summary.json) would read as
  // an accelerator that waited all the time.
  const bool unmeasured = table.has_zero(p + "_au_measured_steps");
  if (unmeasured) {
    table.add_row("AU, mean over ranks and epochs", "n/a",
                  "(no step measured in an epoch: output.metric.exclude_start_steps and "
                  "exclude_end_steps cover all its steps)");
    table.add_row("AU meets expectation", "n/a", "");
  } else {
    table.add("AU, mean over ranks and epochs", p + "_au_mean_percentage", "%");
    table.add_text("AU meets expectation", p + "_au_meet_expectation");
  }
  if (unmeasured && std::isnan(table.value(p + "_throughput_mean_samples_per_second_exact"))) {
    table.add_row("throughput (dlbench: measured steps)", "n/a", "");
  } else {
    table.add("throughput (dlbench: measured steps)",
              p + "_throughput_mean_samples_per_second_exact", "samples/s");
  }
  // DLIO counts (steps − 2) × batch per block (D11): 0 for blocks of at most 2 steps, which a
  // reader of the table would otherwise take for storage that delivered nothing.
  const std::string dlio_key = p + "_throughput_mean_samples_per_second";
  const bool dlio_zero =
      table.value(dlio_key) == 0.0 &&
      (unmeasured || table.value(p + "_throughput_mean_samples_per_second_exact") > 0.0);
  const std::string why_zero = dlio_zero ? " (DLIO counts steps - 2 per block: 0 here)" : "";
  table.add("throughput (DLIO definition)", dlio_key, "samples/s" + why_zero);
  table.add("read rate, bytes actually read", p + "_read_MiB_per_second", "MiB/s");
  table.add("read rate, bytes actually read", p + "_read_GB_per_second", "GB/s", 3);
  table.add("I/O rate (DLIO, nominal sample size)", p + "_io_mean_MB_per_second",
            "MiB/s" + why_zero);
  table.add("sample read latency p50", p + "_sample_read_latency_p50_seconds", "ms", 3, 1e3);
  table.add("sample read latency p99", p + "_sample_read_latency_p99_seconds", "ms", 3, 1e3);
  table.add("batch wait p50", p + "_batch_wait_p50_seconds", "ms", 3, 1e3);
  table.add("batch wait p99", p + "_batch_wait_p99_seconds", "ms", 3, 1e3);
  // Where the AU that is not compute went (per epoch, mean over ranks and epochs).
  table.add_mean("AU lost to load waits (storage)", p + "_au_loss_load_percentage", "points", 3);
  table.add_mean("AU lost waiting for the last rank", p + "_au_loss_barrier_skew_percentage",
                 "points", 3);
  table.add_mean("AU lost in the barrier itself", p + "_au_loss_barrier_latency_percentage",
                 "points", 3);
  table.add_mean("AU lost to the step loop itself", p + "_au_loss_other_percentage", "points", 3);
  table.add_mean("first batch wait per epoch", p + "_first_batch_wait_seconds", "ms", 3, 1e3);
  table.add_mean("compute overshoot per epoch", p + "_compute_overshoot_seconds", "ms", 3, 1e3);
}

}  // namespace

std::string TerminalTable(const RunMetrics& run) {
  const Json summary = BuildSummary(run);
  const Json& m = summary["metric"];
  Table table(m);
  if (m.contains("train_au_percentage")) AddPhase(table, "train", "Training");
  if (m.contains("eval_au_percentage")) AddPhase(table, "eval", "Evaluation");
  if (run.checkpoint) {
    table.section("Checkpoint");
    table.add("trainer stall per save, mean", "checkpoint_stall_mean_seconds", "s", 3);
    table.add("trainer stall per save, max", "checkpoint_stall_max_seconds", "s", 3);
    table.add("of it backpressure, total", "checkpoint_backpressure_total_seconds", "s", 3);
    table.add("save write rate, all ranks", "checkpoint_write_GiB_per_second", "GiB/s", 3);
    table.add("drain rate to capacity tier", "checkpoint_drain_GiB_per_second", "GiB/s", 3);
    table.add("time to durable, mean", "checkpoint_time_to_durable_mean_seconds", "s", 3);
    table.add("time to durable, max", "checkpoint_time_to_durable_max_seconds", "s", 3);
    table.add("save duration (DLIO, rank 0)", "save_checkpoint_duration_mean_seconds", "s", 3);
    table.add("save throughput (DLIO, rank 0)", "save_checkpoint_io_mean_GB_per_second", "GiB/s",
              3);
    // Mean over loads of each load's bytes over its slowest rank's time: what `compare` calls
    // checkpoint read GiB/s. Without it a read-only run showed rank 0's DLIO figures alone.
    table.add_mean("load read rate, all ranks", "load_checkpoint_GiB_per_second", "GiB/s", 3);
    table.add("load duration (DLIO, rank 0)", "load_checkpoint_duration_mean_seconds", "s", 3);
    table.add("load throughput (DLIO, rank 0)", "load_checkpoint_io_mean_GB_per_second", "GiB/s",
              3);
  }
  return table.render();
}

}  // namespace dlbench::metrics
