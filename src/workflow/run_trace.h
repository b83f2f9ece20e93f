// The run's trace (workflow.profiling, or --trace): one DFTracer v1 file per rank in the run
// folder, named as DLIO names its traces (trace-<rank>-of-<ranks>.pfw.gz), recorded by a
// trace::Recorder with the profiling.trace_* options, every storage operation of the phases seen
// through a trace::TracingEnv on top of the run's storage. The ranks' clocks are aligned on the
// run's synchronized origin (metrics/cross_rank.h) so that their traces line up in one timeline.
// docs/tracing.md.
#pragma once

#include <filesystem>
#include <memory>
#include <string>

#include "config/config.h"
#include "metrics/json_fields.h"
#include "mpi/communicator.h"
#include "storage/file.h"
#include "trace/recorder.h"
#include "trace/tracing_env.h"

namespace dlbench::workflow {

// trace-<rank>-of-<ranks>.pfw.gz (DLIO's utils/utility.py::get_trace_name, gzip'd).
std::string TraceFileName(int rank, int ranks);

class RunTrace {
 public:
  // Collective. Starts recording when config.workflow.profiling is on; `storage` (the run's)
  // must outlive this object.
  RunTrace(const config::Config& config, const std::filesystem::path& folder, storage::Env& storage,
           const mpi::Communicator& comm);
  // Finishes an unfinished trace (a failed run keeps a complete, closed trace file).
  ~RunTrace();
  RunTrace(const RunTrace&) = delete;
  RunTrace& operator=(const RunTrace&) = delete;

  // Where the phases do their I/O: the TracingEnv when tracing, else the run's storage.
  storage::Env& env() { return env_ ? *env_ : storage_; }

  // Collective. Writes the rest of each rank's trace and returns {"trace": {...}} for
  // summary.json (totals over ranks; an empty object when not tracing). Rank 0 warns on stderr
  // when events were dropped. Throws Error(kIo) when a rank's trace could not be written.
  metrics::Json finish();

 private:
  const mpi::Communicator& comm_;
  storage::Env& storage_;
  std::unique_ptr<trace::Recorder> recorder_;
  std::unique_ptr<trace::TracingEnv> env_;
};

}  // namespace dlbench::workflow
