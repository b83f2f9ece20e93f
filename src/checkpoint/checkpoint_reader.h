// Reads one rank's files of a complete checkpoint back through a storage::Env with the same
// fixed-buffer, chunked, multi-threaded streaming as the writer: checks that the checkpoint has a
// manifest, that each file is listed there and has its planned size, and, with verify, that every
// byte is what the writer generated. With checkpoint.recovery_rank_shift the caller passes the
// plan of the shifted rank (CheckpointPlan::ForRank(RecoveryRank(...))).
#pragma once

#include <string>
#include <vector>

#include "checkpoint/checkpoint_writer.h"
#include "checkpoint/plan.h"
#include "config/config.h"
#include "storage/aligned_buffer.h"
#include "storage/file.h"

namespace dlbench::checkpoint {

struct CheckpointReaderOptions {
  int threads = 1;  // checkpoint.write_threads (one knob for both directions)
  Bytes buffer_bytes = kDefaultCheckpointBufferBytes;
  bool direct = false;  // checkpoint.odirect
  bool verify = false;  // checkpoint.verify: compare content (costs a second buffer per thread)

  static CheckpointReaderOptions FromConfig(const config::CheckpointConfig& checkpoint);
};

class CheckpointReader {
 public:
  CheckpointReader(storage::Env& env, const CheckpointReaderOptions& options);

  // Bytes of buffer memory this reader holds; fixed for its lifetime.
  Bytes buffer_bytes() const;

  // Reads `plan`'s files from `folder`. Throws Error(kIo) for an incomplete checkpoint (no
  // manifest), a file missing from the manifest or of the wrong size, a short read, or (verify)
  // the first differing byte, naming the path and offset.
  RankIoResult read_rank(const std::string& folder, const RankPlan& plan);

 private:
  storage::Env& env_;
  CheckpointReaderOptions options_;
  std::vector<storage::AlignedBuffer> buffers_;   // one per thread
  std::vector<storage::AlignedBuffer> expected_;  // one per thread with verify
};

}  // namespace dlbench::checkpoint
