// What a reader thread hands the trainer for one step. The sample bytes themselves are discarded
// after reading, as DLIO does; the trainer gets what was read and how it went.
// Batches live in the prefetch queue's slots and are reused, so every vector keeps its capacity.
#pragma once

#include <cstdint>
#include <exception>
#include <string>
#include <vector>

#include "pipeline/sampler.h"
#include "util/units.h"

namespace dlbench::pipeline {

struct Batch {
  std::uint64_t step = 0;             // 0-based step of the epoch
  std::vector<SampleRef> samples;     // what was asked, in order
  std::vector<Seconds> read_seconds;  // per sample: open (if any) + read + preprocess
  std::uint64_t samples_read = 0;     // read successfully
  std::uint64_t samples_failed = 0;   // skipped after an I/O error (reader.on_error: skip)
  Bytes bytes_read = 0;               // returned by read calls, opens included
  Bytes decoded_bytes = 0;            // of the samples read, decoded (jpeg/png pixels, csv values)
  std::string first_error;            // message of the first skipped sample
  std::exception_ptr error;           // reader.on_error: fail — rethrown by the consumer

  void reset(std::uint64_t new_step) {
    step = new_step;
    samples.clear();
    read_seconds.clear();
    samples_read = 0;
    samples_failed = 0;
    bytes_read = 0;
    decoded_bytes = 0;
    first_error.clear();
    error = nullptr;
  }
};

}  // namespace dlbench::pipeline
