// summary.json of a run. Each phase adds its part when it ends and the file is rewritten at once,
// so the results of a finished phase survive a failure in a later one.
#pragma once

#include <filesystem>

#include "metrics/json_fields.h"
#include "mpi/communicator.h"

namespace dlbench::workflow {

class RunResults {
 public:
  RunResults(std::filesystem::path folder, const mpi::Communicator& comm);

  // Merges `part` into the summary (objects are merged key by key, recursively; other values
  // replace) and rewrites <folder>/summary.json atomically. Only rank 0's call has an effect.
  void add(const metrics::Json& part);

  const metrics::Json& summary() const { return summary_; }
  const std::filesystem::path& folder() const { return folder_; }

 private:
  std::filesystem::path folder_;
  bool writer_;
  metrics::Json summary_ = metrics::Json::object();
};

// Writes `text` to `path` through a temporary file and a rename (rank-local; no collective), with
// storage::AtomicFileWriter on PosixEnv: result files are not the workload's I/O, so no tier
// throttles them and no counter sees them.
void WriteFileAtomically(const std::filesystem::path& path, const std::string& text);

}  // namespace dlbench::workflow
