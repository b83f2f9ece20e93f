// The manifest marks a checkpoint complete. Rank 0 writes it last, atomically, after every rank's
// files are in place, listing each file with its size and how its content was generated. A
// checkpoint folder without it is incomplete (a crash or a failed rank mid-save) and is never read
// as a checkpoint; a burst-buffer drain copies it last for the same reason.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "checkpoint/plan.h"
#include "storage/file.h"
#include "util/units.h"

namespace dlbench::checkpoint {

// How the files' bytes were made, so that a restore can verify them (tensor_content.h).
struct ContentSettings {
  bool randomize = true;
  std::uint64_t seed = 0;
};

struct ManifestEntry {
  std::string name;  // relative to the checkpoint folder
  Bytes bytes = 0;
  Rank rank = 0;  // the rank that wrote it
};

struct Manifest {
  std::string checkpoint;  // folder name, global_epoch{E}_step{S}
  int world = 0;
  ContentSettings content;
  Bytes total_bytes = 0;
  std::vector<ManifestEntry> files;
};

// The manifest of `plan` saved in `folder` (its last component names the checkpoint): every rank's
// planned files. The same wherever it is built, so each node of a node-local tier writes the same.
Manifest PlannedManifest(const std::string& folder, const CheckpointPlan& plan,
                         const ContentSettings& content);
std::string ManifestText(const Manifest& manifest);
// Throws Error(kIo) ("corrupt", naming `path`) when `text` is not a manifest.
Manifest ParseManifest(const std::string& text, const std::string& path);

// Checks that the planned files of `ranks` exist in `folder` with their planned sizes. Throws
// Error(kIo) naming the first missing or short file.
void CheckPlannedFiles(storage::Env& env, const std::string& folder, const CheckpointPlan& plan,
                       const std::vector<Rank>& ranks);
// Writes `text` as the manifest of `folder`, atomically (fsync'd when `fsync`).
void WriteManifestText(storage::Env& env, const std::string& folder, const std::string& text,
                       bool fsync);

// CheckPlannedFiles for every rank of `plan`, then the planned manifest written to `folder`; no
// manifest when a file is missing or short. Run by one rank only.
Manifest WriteManifest(storage::Env& env, const std::string& folder, const CheckpointPlan& plan,
                       const ContentSettings& content, bool fsync);

// True when `folder` holds a manifest (the checkpoint is complete).
bool IsCheckpointComplete(storage::Env& env, const std::string& folder);

// The manifest of `folder`; throws Error(kIo) when it is absent ("incomplete checkpoint") or
// cannot be parsed.
Manifest ReadManifest(storage::Env& env, const std::string& folder);

}  // namespace dlbench::checkpoint
