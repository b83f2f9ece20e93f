// Which folders dlbench may write into (and remove its own files from): the one home of the
// rule "never delete or overwrite anything dlbench did not create" at the folder level
// (docs/reliability.md, Safety). A folder dlbench writes into — the output folder, the data
// folder it generates, the staged copy of the dataset, the checkpoint folder and the burst-buffer
// tier it saves to or drains — is claimed first, by rank 0 of the job and, when the folder is on a
// node-local tier (each node has its own), by the lowest rank of every other node too:
// - the root, a system folder or the home folder (util/path_text.h UnsafeFolderReason, links
//   followed; a URI only when it names no bucket) is refused, always;
// - a folder that does not exist is created, with the marker `.dlbench-folder` in it;
// - an existing folder holding a symbolic link at its top level, or a symbolic link to a folder
//   at any depth below, is refused, always (dlbench would write into, and remove its files from,
//   the folder the link points to); only looked for where the storage has symbolic links
//   (storage::Capabilities::symlinks);
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
#include "mpi/communicator.h"
#include "storage/file.h"

namespace dlbench::workflow {

// Claims `folder` as described above (call on one rank). `what` names it in messages ("output
// folder", "dataset.data_folder"). Throws UsageError when refused, Error(kIo) when it cannot be
// created or listed.
void ClaimFolder(storage::Env& env, const std::string& folder, const std::string& what, bool force);

// A folder a command writes into, as the configuration names it on this process's node.
struct WrittenFolder {
  std::string key;          // the configuration key, for messages: "dataset.data_folder"
  std::string folder;       // this node's folder ({node} filled in)
  bool node_local = false;  // under a node_local tier's path: every node has its own copy
};

// What a command does with the configured folders.
struct FolderUse {
  bool reads = false;        // reads the dataset (training and its evaluations): the data folder,
                             // and the staged copy when staging
  bool generates = false;    // writes the data folder
  bool stages = false;       // writes the staged copy of the dataset (stage.to; stage_phase.h)
  bool checkpoints = false;  // saves or drains checkpoints: the checkpoint folder and the
                             // burst-buffer tier
};

// The configured folders a command of `use` writes into.
std::vector<WrittenFolder> WrittenFolders(const config::Config& config, const FolderUse& use);

// Collective. Claims `folders` (ClaimFolder) through `env` (the run's storage: run_storage.h) on
// rank 0, then the node-local ones again on the lowest rank of every other node
// (mpi::NodeMap::Of: DLBENCH_NODE's emulated nodes too), each on its node's own copy. Every rank
// throws the error of the lowest refusing rank, before any rank writes.
void ClaimFolders(const std::vector<WrittenFolder>& folders, bool force, storage::Env& env,
                  const mpi::Communicator& comm);

}  // namespace dlbench::workflow
