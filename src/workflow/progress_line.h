// The live progress line of rank 0: epoch, step/total, samples/s, AU so far, ETA. Shown only
// when stdout is a terminal and the run is not --quiet; never written to files.
#pragma once

#include <cstdint>
#include <string>

#include "metrics/step_record.h"
#include "util/units.h"

namespace dlbench::workflow {

class ProgressLine {
 public:
  // `enabled` false makes every call a no-op (other ranks, --quiet, not a terminal).
  ProgressLine(bool enabled, int epochs, std::uint64_t steps_per_epoch, std::uint64_t batch,
               int ranks);
  ~ProgressLine();

  // After each training step of `epoch`; `record` is the rank's record so far.
  void update(bool eval, int epoch, std::uint64_t step, std::uint64_t steps,
              const metrics::RankRecord& record);
  // Ends the line (moves to the next one) if anything was printed.
  void finish();

  // The text of the line, for tests.
  static std::string Format(bool eval, int epoch, int epochs, std::uint64_t step,
                            std::uint64_t steps, double samples_per_second, double au_percent,
                            Seconds eta);

 private:
  bool enabled_;
  bool printed_ = false;
  int epochs_;
  std::uint64_t steps_per_epoch_;
  std::uint64_t batch_;
  int ranks_;
  Seconds started_;
  Seconds last_print_ = -1;
  std::uint64_t done_ = 0;  // training steps so far, and their compute and total time
  Seconds compute_ = 0;
  Seconds busy_ = 0;
};

// Whether rank 0 shows the progress line: never with `quiet`; always with `forced`; otherwise
// only when stdout is a terminal and the process was not started by a launcher such as mpirun,
// which hands its ranks a pseudo-terminal even when its own output goes to a file.
bool ShowProgress(bool forced, bool quiet);

}  // namespace dlbench::workflow
