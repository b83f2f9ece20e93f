// A checkpoint complete on the burst buffer's fast tier against the checkpoint folder's copy of
// the same name, when a store resumes (BurstBufferStore::resume, `dlbench checkpoint drain`):
// which one is durable, and removing a fast copy that needs no drain.
#pragma once

#include <string>

#include "storage/file.h"

namespace dlbench::checkpoint {

// What the checkpoint folder holds of a checkpoint complete on the fast tier at `fast`.
enum class CapacityCopy {
  kStale,  // missing, incomplete, unreadable, or an older save of the name: drain the fast copy
  kSame,   // complete with the same manifest (names, sizes, content seed: the same bytes)
  kNewer,  // complete, another save of the name, and newer: the fast copy is not drained
};

// Newer by the manifests' modification times: a drain writes the capacity manifest after the fast
// tier's, so a drained copy is never older than its source, and a save made later straight to the
// checkpoint folder (a run without burst buffer) is newer than the fast copy it must not lose to.
CapacityCopy CompareCapacityCopy(storage::Env& env, const std::string& fast,
                                 const std::string& capacity);

// Removes a fast-tier copy that is durable already (its manifest first, so that no reader takes
// it for complete, then the files it names, then the folder if that left it empty).
void RemoveDurableLeftover(storage::Env& env, const std::string& fast);

}  // namespace dlbench::checkpoint
