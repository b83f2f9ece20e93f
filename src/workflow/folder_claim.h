// Which folders dlbench may write into (and remove its own files from): the one home of the
// rule "never delete or overwrite anything dlbench did not create" at the folder level
// (docs/reliability.md, Safety). A folder dlbench writes into — the output folder, the data
// folder it generates, the checkpoint folder and the burst-buffer tier it saves to — is claimed
// first, by rank 0 of the job:
// - the root, a system folder or the home folder (util/path_text.h UnsafeFolderReason, links
//   followed) is refused, always;
// - a folder that does not exist is created, with the marker `.dlbench-folder` in it;
// - an existing folder holding a symbolic link at its top level is refused, always (dlbench
//   would write into, and remove its files from, the folder the link points to);
// - an existing folder is accepted when it is empty or holds the marker (or, for a data folder,
//   generation's own `.dlbench-dataset.json`); otherwise it is refused (exit 2) unless `force`
//   (the --force flag), which claims it anyway.
// Inside a claimed folder dlbench writes only the names it makes (data files, checkpoint files,
// results), never through a symbolic link (storage's creating opens use O_NOFOLLOW), and removes
// only files its own plans and manifests list; anything else in the folder survives.
#pragma once

#include <string>
#include <vector>

#include "config/config.h"
#include "storage/file.h"

namespace dlbench::workflow {

inline constexpr const char* kFolderMarkerName = ".dlbench-folder";

// Claims `folder` as described above (call on one rank). `what` names it in messages ("output
// folder", "dataset.data_folder"). Throws UsageError when refused, Error(kIo) when it cannot be
// created or listed.
void ClaimFolder(storage::Env& env, const std::string& folder, const std::string& what, bool force);

// The configured folders a run of `config` writes into (key, folder), given whether it
// generates data and whether it saves checkpoints.
std::vector<std::pair<std::string, std::string>> WrittenFolders(const config::Config& config,
                                                                bool generates,
                                                                bool saves_checkpoints);

}  // namespace dlbench::workflow
