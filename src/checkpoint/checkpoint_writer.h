// Writes one rank's files of a checkpoint through a storage::Env, streaming from fixed buffers:
// `threads` threads each own one buffer of `buffer_bytes` and take fixed-size chunks of the rank's
// files in order, so memory is threads x buffer_bytes whatever the checkpoint size (DLIO keeps the
// whole checkpoint in RAM, defect D20), and the state of a bounded window of files in flight
// whatever their number (chunk_schedule.h). Every file is created for publishing, fsync'd when
// asked, and published when complete (storage::AtomicFileWriter); on storage without random writes
// (an object store) one thread appends each file's chunks in order instead. The folder is a
// parameter, so a burst-buffer layer can point the writer at a fast tier and drain complete
// checkpoints (manifest last) later.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "checkpoint/manifest.h"
#include "checkpoint/plan.h"
#include "config/config.h"
#include "storage/aligned_buffer.h"
#include "storage/file.h"
#include "util/units.h"

namespace dlbench::checkpoint {

inline constexpr Bytes kDefaultCheckpointBufferBytes = 8 * MiB;

struct WriterOptions {
  int threads = 1;                                     // checkpoint.write_threads
  Bytes buffer_bytes = kDefaultCheckpointBufferBytes;  // per thread; a multiple of 4 KiB
  bool fsync = false;                                  // checkpoint.fsync
  bool direct = false;                                 // checkpoint.odirect
  ContentSettings content;                             // randomize_tensor and the content seed

  static WriterOptions FromConfig(const config::CheckpointConfig& checkpoint,
                                  std::uint64_t content_seed);
};

// What one rank moved for one checkpoint.
struct RankIoResult {
  Bytes bytes = 0;
  Seconds start = 0;         // entry into WriteRank/ReadRank (folder creation included)
  Seconds end = 0;           // the last file complete
  std::uint64_t files = 0;   // files written or read, every file of the plan
  std::uint64_t fsyncs = 0;  // file fsyncs requested (a directory fsync follows each publish)
  Seconds duration() const { return end - start; }
};

class CheckpointWriter {
 public:
  // Allocates the buffers; throws Error(kUsage) for threads < 1 or a buffer size that is not a
  // positive multiple of 4 KiB.
  CheckpointWriter(storage::Env& env, const WriterOptions& options);

  // Bytes of buffer memory this writer holds; fixed for its lifetime.
  Bytes buffer_bytes() const;

  // Writes `plan`'s files into `folder` (created if needed; its last path component names the
  // checkpoint for the content key). On failure rethrows the first error after removing every
  // temporary file; files already renamed are complete, but without a manifest the checkpoint is
  // not. Not thread-safe: one call at a time per writer. `on_file_complete(i)` runs, on a writer
  // thread, as soon as plan.files[i] is complete under its final name (fsync'd when asked): a
  // burst buffer starts draining that file while the others are still being written. It must
  // not throw and should return quickly. `reuse[i]` true: the caller moved an earlier file to
  // plan.files[i]'s partial path (storage::PartialPathFor), which is overwritten in place and cut
  // to size, not created (ignored on storage without random writes). With tracing on, each file
  // is one trace::Event::kCapture on the trace's file tracks (its chunks are spread over threads,
  // so its span is no one thread's).
  RankIoResult write_rank(const std::string& folder, const RankPlan& plan,
                          const std::function<void(std::size_t file)>& on_file_complete = {},
                          const std::vector<bool>& reuse = {});

 private:
  storage::Env& env_;
  WriterOptions options_;
  std::vector<storage::AlignedBuffer> buffers_;  // one per thread
};

}  // namespace dlbench::checkpoint
