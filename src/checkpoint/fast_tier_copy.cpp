#include "checkpoint/fast_tier_copy.h"

#include <cstdint>

#include "checkpoint/manifest.h"
#include "util/error.h"
#include "util/file_names.h"
#include "util/path_text.h"

namespace dlbench::checkpoint {

CapacityCopy CompareCapacityCopy(storage::Env& env, const std::string& fast,
                                 const std::string& capacity) {
  if (!IsCheckpointComplete(env, capacity)) return CapacityCopy::kStale;
  const std::string text = ManifestText(ReadManifest(env, fast));
  try {
    if (ManifestText(ReadManifest(env, capacity)) == text) return CapacityCopy::kSame;
    const std::int64_t saved = env.modified_ns(JoinPath(fast, file_names::kCheckpointManifest));
    return env.modified_ns(JoinPath(capacity, file_names::kCheckpointManifest)) >= saved
               ? CapacityCopy::kNewer
               : CapacityCopy::kStale;
  } catch (const Error&) {  // a capacity manifest that cannot be read is no durable copy
    return CapacityCopy::kStale;
  }
}

void RemoveDurableLeftover(storage::Env& env, const std::string& fast) {
  const Manifest manifest = ReadManifest(env, fast);
  env.remove(JoinPath(fast, file_names::kCheckpointManifest));
  for (const ManifestEntry& entry : manifest.files) {
    const std::string path = JoinPath(fast, entry.name);
    if (env.exists(path)) env.remove(path);
  }
  try {
    env.remove(fast);
  } catch (const Error&) {  // only if empty: someone else's file keeps it
  }
}

}  // namespace dlbench::checkpoint
