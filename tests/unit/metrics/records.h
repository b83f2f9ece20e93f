// Builders of hand-made step timelines for the metrics tests.
#pragma once

#include <vector>

#include "metrics/step_record.h"

namespace dlbench::metrics::test {

struct StepTimes {
  Seconds load;
  Seconds compute;
  Seconds barrier;
};

// A block starting at `start` whose steps follow each other without gaps; each step carries
// `samples` samples, `bytes_per_sample` bytes read and `nominal_per_sample` nominal bytes.
inline BlockRecord MakeBlock(int number, Seconds start, const std::vector<StepTimes>& steps,
                             std::uint64_t samples = 4, Bytes bytes_per_sample = 1000,
                             Bytes nominal_per_sample = 1024) {
  BlockRecord block;
  block.number = number;
  block.start = start;
  Seconds t = start;
  for (const StepTimes& s : steps) {
    StepRecord step;
    step.start = t;
    step.load = s.load;
    step.compute = s.compute;
    step.barrier = s.barrier;
    t += s.load + s.compute + s.barrier;
    step.end = t;
    step.samples = samples;
    step.read_bytes = samples * bytes_per_sample;
    step.nominal_bytes = samples * nominal_per_sample;
    block.steps.push_back(step);
  }
  block.end = t;
  return block;
}

// The four-step block worked through in docs/metrics.md: wall 5.5 s, proc of step 0 = 1.5 s.
inline BlockRecord WorkedBlock(int number = 1, Seconds start = 0) {
  return MakeBlock(number, start,
                   {{0.5, 1.0, 0.1}, {0.2, 1.0, 0.2}, {0.3, 1.0, 0.0}, {0.1, 1.0, 0.1}});
}

}  // namespace dlbench::metrics::test
