// reader.drop_caches: making each epoch read from storage rather than from the page cache.
#pragma once

#include "config/config.h"
#include "generation/dataset_files.h"
#include "mpi/communicator.h"
#include "storage/file.h"

namespace dlbench::workflow {

// Collective; called between epochs, outside the timed blocks.
// - fadvise: every rank drops the pages of its share of the dataset's files (round robin), with
//   posix_fadvise(DONTNEED) through ReadableFile::drop_cache;
// - drop: one rank per node writes 3 to /proc/sys/vm/drop_caches (after sync); when that is not
//   permitted, fadvise is used instead and rank 0 warns once.
class PageCacheDropper {
 public:
  PageCacheDropper(config::DropCaches mode, const generation::DatasetFiles& files,
                   storage::Env& env, const mpi::Communicator& comm);
  void drop();

 private:
  void drop_with_fadvise();
  config::DropCaches mode_;
  const generation::DatasetFiles& files_;
  storage::Env& env_;
  const mpi::Communicator& comm_;
  bool warned_ = false;
  bool node_leader_;
};

}  // namespace dlbench::workflow
