#include "generation/dataset_removal.h"

#include <algorithm>

#include "generation/dataset_files.h"
#include "generation/generation_resume.h"
#include "mpi/agreement.h"
#include "util/error.h"
#include "util/file_names.h"
#include "util/path_text.h"
#include "util/sink.h"

namespace dlbench::generation {
namespace {

// True when `folder` exists and holds nothing, or only the entries named in `allowed`.
bool HoldsOnly(storage::Env& env, const std::string& folder,
               const std::vector<std::string>& allowed) {
  if (!env.exists(folder)) return false;
  bool only = true;
  env.for_each_entry(folder, [&](const storage::DirectoryEntry& entry) {
    only = std::find(allowed.begin(), allowed.end(), entry.name) != allowed.end();
    return only;
  });
  return only;
}

}  // namespace

bool RemovesDatasetAtEnd(const config::Config& config, bool generated,
                         bool trained_or_checkpointed) {
  return !config.dataset.keep_files && generated && trained_or_checkpointed;
}

std::uint64_t RemoveGeneratedDataset(const config::Config& config, storage::Env& env, bool quiet,
                                     const mpi::Communicator& comm) {
  const std::string& data = config.dataset.data_folder;
  const std::string marker_path = DatasetMarkerPath(config);
  // Rank 0 decides from the marker, which only dlbench's generation writes.
  std::string refusal;
  mpi::AgreeOnFailure(comm, [&] {
    if (!comm.is_root()) return;
    const auto marker = ReadDatasetMarker(env, marker_path);
    if (!marker || !marker->complete || marker->fingerprint != DatasetFingerprint(config)) {
      refusal = "dataset.keep_files is false, but " + data +
                " holds no dataset dlbench generated complete with these settings (" +
                file_names::kDatasetMarker + "); nothing was removed";
      return;
    }
    env.remove(marker_path);
  });
  refusal = comm.broadcast(refusal);
  if (!refusal.empty()) {
    if (comm.is_root()) sink::Warning(refusal);
    return 0;
  }
  const DatasetFiles files(config.dataset);
  std::uint64_t removed = 0;
  mpi::AgreeOnFailure(comm, [&] {
    // A thousand paths at a time: one DeleteObjects request on S3, and memory bounded.
    constexpr std::size_t kBatch = 1000;
    std::vector<std::string> batch;
    const auto ranks = static_cast<FileIndex>(comm.size());
    for (FileIndex g = static_cast<FileIndex>(comm.rank()); g < files.total(); g += ranks) {
      DatasetFile file = files.file(g);
      for (std::string& companion : file.companions) batch.push_back(std::move(companion));
      batch.push_back(std::move(file.path));
      ++removed;
      if (batch.size() >= kBatch) {
        env.remove_files(batch);
        batch.clear();
      }
    }
    env.remove_files(batch);
  });
  removed = comm.sum(removed);
  mpi::AgreeOnFailure(comm, [&] {
    if (!comm.is_root()) return;
    // The plan's folders, deepest first, each only when empty (a foreign file keeps its folder).
    std::vector<std::string> folders = files.folders();
    std::sort(folders.begin(), folders.end(),
              [](const std::string& a, const std::string& b) { return a.size() > b.size(); });
    for (const std::string& folder : folders) {
      if (HoldsOnly(env, folder, {})) env.remove(folder);
    }
    if (HoldsOnly(env, data, {file_names::kFolderMarker})) {
      env.remove(JoinPath(data, file_names::kFolderMarker));
      env.remove(data);
    }
    if (!quiet) {
      sink::Note("dataset.keep_files is false: removed the " + std::to_string(removed) +
                 " data files generation made in " + data);
    }
  });
  return removed;
}

}  // namespace dlbench::generation
