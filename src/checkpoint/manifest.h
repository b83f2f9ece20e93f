// The manifest marks a checkpoint complete. Rank 0 writes it last, atomically, after every rank's
// files are in place, listing each file with its size and how its content was generated. A
// checkpoint folder without it is incomplete (a crash or a failed rank mid-save) and is never read
// as a checkpoint; a burst-buffer drain copies it last for the same reason.
#pragma once

#include <cstdint>
#include <functional>
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
  std::vector<ManifestEntry> files;  // every file listed, or those a filtered read kept
  std::uint64_t listed_files = 0;    // how many files the manifest lists, kept or not
};

// Which of a manifest's files a read keeps; an empty filter keeps every one. A rank that needs
// its own files only keeps those: the manifest lists every file of the job.
using ManifestFilter = std::function<bool(const ManifestEntry&)>;

// The manifest of `plan` saved in `folder` (its last component names the checkpoint): every rank's
// planned files. The same wherever it is built, so each node of a node-local tier writes the same.
Manifest PlannedManifest(const std::string& folder, const CheckpointPlan& plan,
                         const ContentSettings& content);
// JSON: an object of `checkpoint`, `content`, `files` (objects of `bytes`, `name`, `rank`),
// `format`, `total_bytes`, `version` and `world`, keys sorted, indented by one space.
std::string ManifestText(const Manifest& manifest);
// ManifestText(PlannedManifest(folder, plan, content)), built from one rank's plan at a time,
// without a list of every file beside the text.
std::string PlannedManifestText(const std::string& folder, const CheckpointPlan& plan,
                                const ContentSettings& content);
// Throws Error(kIo) ("corrupt", naming `path`) when `text` is not a manifest. Every file entry is
// checked, kept or not.
Manifest ParseManifest(const std::string& text, const std::string& path,
                       const ManifestFilter& keep = {});

// Checks that the planned files of `ranks` exist in `folder` with their planned sizes. Throws
// Error(kIo) naming the first missing or short file.
void CheckPlannedFiles(storage::Env& env, const std::string& folder, const CheckpointPlan& plan,
                       const std::vector<Rank>& ranks);
// Writes `text` as the manifest of `folder`, atomically (fsync'd when `fsync`).
void WriteManifestText(storage::Env& env, const std::string& folder, const std::string& text,
                       bool fsync);

// PlannedManifestText written as the manifest of `folder`, atomically (fsync'd when `fsync`), a
// piece at a time: the writer never holds the whole text.
void WritePlannedManifest(storage::Env& env, const std::string& folder, const CheckpointPlan& plan,
                          const ContentSettings& content, bool fsync);

// CheckPlannedFiles for every rank of `plan`, then the planned manifest written to `folder`; no
// manifest when a file is missing or short. Run by one rank only.
Manifest WriteManifest(storage::Env& env, const std::string& folder, const CheckpointPlan& plan,
                       const ContentSettings& content, bool fsync);

// True when `folder` holds a manifest (the checkpoint is complete).
bool IsCheckpointComplete(storage::Env& env, const std::string& folder);

// The manifest of `folder`, read and parsed a piece at a time, with the files `keep` keeps; throws
// Error(kIo) when it is absent ("incomplete checkpoint") or cannot be parsed.
Manifest ReadManifest(storage::Env& env, const std::string& folder,
                      const ManifestFilter& keep = {});

}  // namespace dlbench::checkpoint
