#include "workflow/page_cache.h"

#include <unistd.h>

#include <cstdio>

#include "util/sink.h"

namespace dlbench::workflow {

PageCacheDropper::PageCacheDropper(config::DropCaches mode, const generation::DatasetFiles& files,
                                   storage::Env& env, const mpi::Communicator& comm)
    : mode_(mode), files_(files), env_(env), comm_(comm) {
  // The lowest rank of each node writes drop_caches (the cache is per node).
  node_leader_ = mode == config::DropCaches::kDrop &&
                 comm.rank() % std::max(1, comm.ranks_on_this_node()) == 0;
}

void PageCacheDropper::drop_with_fadvise() {
  const auto ranks = static_cast<FileIndex>(comm_.size());
  for (FileIndex g = static_cast<FileIndex>(comm_.rank()); g < files_.total(); g += ranks) {
    const generation::DatasetFile file = files_.file(g);
    env_.open_read(file.path)->drop_cache();
  }
}

void PageCacheDropper::drop() {
  if (mode_ == config::DropCaches::kNone) return;
  bool dropped = false;
  if (mode_ == config::DropCaches::kDrop && node_leader_) {
    ::sync();
    if (FILE* control = std::fopen("/proc/sys/vm/drop_caches", "w")) {
      dropped = std::fputs("3\n", control) >= 0;
      dropped = (std::fclose(control) == 0) && dropped;
    }
  }
  const int any_failed =
      comm_.max(mode_ == config::DropCaches::kDrop && node_leader_ && !dropped ? 1 : 0);
  if (mode_ == config::DropCaches::kFadvise || any_failed) {
    if (any_failed && !warned_ && comm_.is_root()) {
      sink::Warning(
          "reader.drop_caches=drop: cannot write /proc/sys/vm/drop_caches here (needs root "
          "outside a container); using posix_fadvise(DONTNEED) on the dataset files instead");
    }
    warned_ = true;
    drop_with_fadvise();
  }
  comm_.barrier();
}

}  // namespace dlbench::workflow
