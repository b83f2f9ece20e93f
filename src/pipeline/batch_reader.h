// The work of one reader thread: reads the samples of a batch through a SampleSource into a
// buffer it owns and reuses, keeping files open per ReaderPoolOptions::read_type, sleeping the
// preprocess time, and recording bytes, latencies and errors in the Batch.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "pipeline/batch.h"
#include "pipeline/reader_pool_options.h"
#include "pipeline/sample_buffers.h"
#include "pipeline/sample_source.h"

namespace dlbench::pipeline {

class BatchReader {
 public:
  // `buffer` (the thread's, from SampleBuffers) must outlive the reader.
  BatchReader(SampleSource& source, const ReaderPoolOptions& options, int epoch,
              SampleBuffer& buffer);

  // Reads batch.samples (already filled) and records the outcome in `batch`. In fail mode the
  // first error is stored in batch.error and the rest of the batch is not read.
  void read(Batch& batch);

 private:
  struct OpenFile {
    FileIndex file = 0;
    std::unique_ptr<SampleFile> handle;
    std::uint64_t last_use = 0;
  };

  // The open file for `file` (memory mode), opening it and evicting the least recently used
  // one if needed. Adds open bytes to `batch`.
  SampleFile& cached(FileIndex file, Batch& batch);
  void forget(FileIndex file);
  std::size_t capacity() const { return options_.open_files < 1 ? 1 : options_.open_files; }
  Bytes read_one(const SampleRef& sample, Batch& batch);

  SampleSource& source_;
  const ReaderPoolOptions& options_;
  int epoch_;
  std::vector<OpenFile> open_;
  std::uint64_t use_counter_ = 0;
  SampleBuffer& buffer_;
};

}  // namespace dlbench::pipeline
