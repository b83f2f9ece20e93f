#include "workflow/progress_line.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "metrics/clock.h"
#include "util/sink.h"

namespace dlbench::workflow {

bool ShowProgress(bool forced, bool quiet) {
  if (quiet) return false;
  if (forced) return true;
  for (const char* launcher_variable : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK"}) {
    if (std::getenv(launcher_variable) != nullptr) return false;
  }
  return ::isatty(STDOUT_FILENO) == 1;
}

ProgressLine::ProgressLine(bool enabled, int epochs, std::uint64_t steps_per_epoch,
                           std::uint64_t batch, int ranks)
    : enabled_(enabled),
      epochs_(epochs),
      steps_per_epoch_(steps_per_epoch),
      batch_(batch),
      ranks_(ranks),
      started_(metrics::Now()) {}

ProgressLine::~ProgressLine() { finish(); }

std::string ProgressLine::Format(bool eval, int epoch, int epochs, std::uint64_t step,
                                 std::uint64_t steps, double samples_per_second, double au_percent,
                                 Seconds eta) {
  char text[160];
  std::snprintf(
      text, sizeof text, "%s epoch %d/%d  step %llu/%llu  %.1f samples/s  AU %.1f%%  ETA %.0fs",
      eval ? "[eval] " : "[train]", epoch, epochs, static_cast<unsigned long long>(step),
      static_cast<unsigned long long>(steps), samples_per_second, au_percent, eta < 0 ? 0.0 : eta);
  return text;
}

void ProgressLine::update(bool eval, int epoch, std::uint64_t step, std::uint64_t steps,
                          const metrics::RankRecord& record) {
  if (!enabled_) return;
  // Called once per step: account for the step just recorded (training steps only).
  if (!eval && !record.epochs.empty() && !record.epochs.back().blocks.empty() &&
      !record.epochs.back().blocks.back().steps.empty()) {
    const metrics::StepRecord& last = record.epochs.back().blocks.back().steps.back();
    ++done_;
    compute_ += last.compute;
    busy_ += last.end - last.start;
  }
  const Seconds now = metrics::Now();
  if (now - last_print_ < 0.2 && step != steps) return;  // at most 5 updates a second
  last_print_ = now;
  const std::uint64_t done = done_;
  const Seconds elapsed = now - started_;
  const double rate = elapsed > 0 ? static_cast<double>(done * batch_ * ranks_) / elapsed : 0;
  const double au = busy_ > 0 ? 100.0 * compute_ / busy_ : 0;
  const std::uint64_t total = steps_per_epoch_ * static_cast<std::uint64_t>(epochs_);
  const Seconds eta = done > 0 ? elapsed / static_cast<double>(done) *
                                     static_cast<double>(total - std::min(done, total))
                               : 0;
  sink::Result("\r" + Format(eval, epoch, epochs_, step, steps, rate, au, eta) + "\x1b[K");
  printed_ = true;
}

void ProgressLine::finish() {
  if (printed_) {
    sink::Result("\n");
    printed_ = false;
  }
}

}  // namespace dlbench::workflow
