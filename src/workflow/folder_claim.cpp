#include "workflow/folder_claim.h"

#include "storage/atomic_file.h"
#include "util/error.h"
#include "util/path_text.h"
#include "workflow/generation_resume.h"

namespace dlbench::workflow {
namespace {

constexpr const char* kMarkerText =
    "This folder was created or claimed by dlbench, which writes here only the files it names\n"
    "and removes only files its own manifests list (docs/reliability.md, Safety).\n";

void WriteMarker(storage::Env& env, const std::string& folder) {
  storage::AtomicFileWriter writer(env, JoinPath(folder, kFolderMarkerName));
  writer.file().append(kMarkerText, std::char_traits<char>::length(kMarkerText));
  writer.commit(/*fsync=*/false);
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
  bool marked = false;
  std::string foreign;  // the first entry dlbench did not make
  std::string link;     // the first symbolic link
  if (existed) {
    for (const storage::DirectoryEntry& entry : env.list_directory(folder)) {
      if (entry.name == kFolderMarkerName || entry.name == kDatasetMarkerName) {
        marked = true;
      } else if (foreign.empty()) {
        foreign = entry.name;
      }
      if (link.empty() && IsSymbolicLink(JoinPath(folder, entry.name))) link = entry.name;
    }
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
                     ") and was not made by dlbench (no " + kFolderMarkerName +
                     " marker); give a new or empty folder, or pass --force to write into it "
                     "(dlbench then replaces only the files it names)");
  }
  if (!env.exists(JoinPath(folder, kFolderMarkerName))) WriteMarker(env, folder);
}

std::vector<std::pair<std::string, std::string>> WrittenFolders(const config::Config& config,
                                                                bool generates,
                                                                bool saves_checkpoints) {
  std::vector<std::pair<std::string, std::string>> folders;
  if (generates) folders.emplace_back("dataset.data_folder", config.dataset.data_folder);
  if (saves_checkpoints) {
    folders.emplace_back("checkpoint.checkpoint_folder", config.checkpoint.checkpoint_folder);
    if (config.checkpoint.burst_buffer) {
      for (const config::TierConfig& tier : config.storage.tiers) {
        if (tier.name == config.checkpoint.burst_buffer->tier) {
          folders.emplace_back("storage.tiers." + tier.name + ".path", tier.path);
        }
      }
    }
  }
  return folders;
}

}  // namespace dlbench::workflow
