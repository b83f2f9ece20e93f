#include "workflow/folder_claim.h"

#include <algorithm>

#include "generation/generation_resume.h"
#include "mpi/agreement.h"
#include "mpi/nodes.h"
#include "storage/atomic_file.h"
#include "util/error.h"
#include "util/file_names.h"
#include "util/path_text.h"
#include "workflow/stage_phase.h"

namespace dlbench::workflow {
namespace {

constexpr const char* kMarkerText =
    "This folder was created or claimed by dlbench, which writes here only the files it names\n"
    "and removes only files its own manifests list (docs/reliability.md, Safety).\n";

void WriteMarker(storage::Env& env, const std::string& folder) {
  storage::AtomicFileWriter writer(env, JoinPath(folder, file_names::kFolderMarker));
  writer.file().append(kMarkerText, std::char_traits<char>::length(kMarkerText));
  writer.commit(/*fsync=*/false);
}

// The first symbolic link to a folder below the sub-folder `relative` of `folder`, at any depth,
// as a path relative to `folder`; empty when there is none. The listings say which entries are
// folders and which are links (DirectoryEntry), so a data folder of many files costs one listing
// per sub-folder and nothing per file.
std::string LinkedFolderBelow(storage::Env& env, const std::string& folder,
                              const std::string& relative) {
  std::string link;
  env.for_each_entry(JoinPath(folder, relative), [&](const storage::DirectoryEntry& entry) {
    if (!entry.is_directory) return true;
    const std::string below = relative.empty() ? entry.name : JoinPath(relative, entry.name);
    link = entry.is_symlink ? below : LinkedFolderBelow(env, folder, below);
    return link.empty();
  });
  return link;
}

}  // namespace

void ClaimFolder(storage::Env& env, const std::string& folder, const std::string& what,
                 bool force) {
  if (const std::string reason = UnsafeFolderReason(folder); !reason.empty()) {
    throw UsageError(what + " " + reason + "; give a dedicated folder");
  }
  // An existing path that is not a folder fails here, naming it (exit 3).
  const bool existed = env.exists(folder);
  env.create_directories(folder);
  const bool links = env.capabilities(folder).symlinks;
  bool marked = false;
  std::string foreign;  // the first entry by name dlbench did not make
  std::string link;     // the first symbolic link by name
  if (existed) {
    env.for_each_entry(folder, [&](const storage::DirectoryEntry& entry) {
      if (entry.name == file_names::kFolderMarker || entry.name == file_names::kDatasetMarker) {
        marked = true;
      } else if (foreign.empty() || entry.name < foreign) {
        foreign = entry.name;
      }
      if (links && entry.is_symlink && (link.empty() || entry.name < link)) {
        link = entry.name;
      }
      return true;
    });
    if (links && link.empty()) link = LinkedFolderBelow(env, folder, "");
  }
  // Not even with --force: through a link to a folder, dlbench would write (and remove its
  // files) outside the folder it was given.
  if (!link.empty()) {
    throw UsageError(what + " '" + folder + "' holds a symbolic link, " + link +
                     "; dlbench writes only inside the folders it is given, never through a "
                     "link. remove the link or give another folder");
  }
  if (!force && !marked && !foreign.empty()) {
    throw UsageError(what + " '" + folder + "' is not empty (it holds " + foreign +
                     ") and was not made by dlbench (no " + file_names::kFolderMarker +
                     " marker); give a new or empty folder, or pass --force to write into it "
                     "(dlbench then replaces only the files it names)");
  }
  if (!env.exists(JoinPath(folder, file_names::kFolderMarker))) WriteMarker(env, folder);
}

std::vector<WrittenFolder> WrittenFolders(const config::Config& config, const FolderUse& use) {
  std::vector<WrittenFolder> folders;
  const auto add = [&](const std::string& key, const std::string& folder) {
    bool node_local = false;
    for (const config::TierConfig& tier : config.storage.tiers) {
      node_local = node_local || (tier.node_local && FolderContains(AbsoluteFolder(tier.path),
                                                                    AbsoluteFolder(folder)));
    }
    folders.push_back({key, folder, node_local});
  };
  if (use.generates) add("dataset.data_folder", config.dataset.data_folder);
  if (use.stages)
    add("the staged data folder (stage.to: " + config.stage.to + ")", StagedDataFolder(config));
  if (use.checkpoints) {
    add("checkpoint.checkpoint_folder", config.checkpoint.checkpoint_folder);
    if (config.checkpoint.burst_buffer) {
      for (const config::TierConfig& tier : config.storage.tiers) {
        if (tier.name == config.checkpoint.burst_buffer->tier) {
          add("storage.tiers." + tier.name + ".path", tier.path);
        }
      }
    }
  }
  return folders;
}

void ClaimFolders(const std::vector<WrittenFolder>& folders, bool force, storage::Env& env,
                  const mpi::Communicator& comm) {
  // Rank 0 first, alone: a shared folder is created and marked once, with no other rank listing
  // it half-made.
  mpi::AgreeOnFailure(comm, [&] {
    if (!comm.is_root()) return;
    for (const WrittenFolder& f : folders) ClaimFolder(env, f.folder, f.key, force);
  });
  // Every rank holds the same configuration, so all agree on whether this step is needed.
  const bool any_node_local = std::any_of(folders.begin(), folders.end(),
                                          [](const WrittenFolder& f) { return f.node_local; });
  if (!any_node_local || comm.size() == 1) return;
  const mpi::NodeMap nodes = mpi::NodeMap::Of(comm);
  mpi::AgreeOnFailure(comm, [&] {
    if (comm.is_root() || !nodes.leads(comm.rank())) return;
    for (const WrittenFolder& f : folders) {
      if (f.node_local) {
        ClaimFolder(env, f.folder, f.key + " (node " + nodes.name(nodes.node_of(comm.rank())) + ")",
                    force);
      }
    }
  });
}

}  // namespace dlbench::workflow
