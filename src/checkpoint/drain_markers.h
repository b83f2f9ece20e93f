// The marker files a burst-buffer drain leaves in the capacity-side checkpoint folder
// (drain_engine.h), hidden and per rank: a "drained" marker says the rank's part is copied and a
// "failed" one carries the error that stopped it (both start "dlbench-drain <token>"); a content
// marker names what decides the bytes of the rank's files, so that a resumed drain can trust a
// file it finds whole under its final name. Their names and texts are made here.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "checkpoint/manifest.h"
#include "checkpoint/planned_files.h"
#include "storage/file.h"
#include "util/units.h"

namespace dlbench::checkpoint {

// Hidden marker names inside the capacity-side checkpoint folder.
std::string DrainedMarkerName(Rank rank);
std::string DrainFailedMarkerName(Rank rank);
// The content marker of a saving rank's part: written by the drain of a new save once it has
// moved every earlier copy of the rank's files away from their final names (to their partial
// names, to be overwritten in place), it says that every file of the rank under its final name
// in this folder was copied whole (fsync'd, renamed into place) for the content it names
// (EmitDrainContentText). A resumed drain skips such a file when its size is right, instead of
// copying it again: size alone would not do, as an earlier save of the same name and size may
// have held other bytes.
std::string DrainContentMarkerName(Rank rank);
// A marker's whole text; Error(kIo) naming `path` when it cannot be read whole.
std::string ReadMarkerText(storage::Env& env, const std::string& path);
// True for a file name made by one of the three functions above / by DrainFailedMarkerName.
bool IsDrainMarkerName(const std::string& file_name);
bool IsDrainFailedMarkerName(const std::string& file_name);

// What decides the bytes of a saving rank's files (tensor_content.h: the seed, randomize, the
// checkpoint's name and each file's name and size), as the text of its content marker: a header,
// then a line for each file. Handed to `emit` in pieces of a few KiB, never held whole.
void EmitDrainContentText(const ContentSettings& content, const std::string& checkpoint,
                          const PlannedFiles& files,
                          const std::function<void(std::string_view)>& emit);
// The marker at `path` holds exactly that text (compared a piece at a time). False when it is
// absent; Error(kIo) naming `path` when it cannot be read.
bool DrainContentMatches(storage::Env& env, const std::string& path, const ContentSettings& content,
                         const std::string& checkpoint, const PlannedFiles& files);

}  // namespace dlbench::checkpoint
