// Before training: is the dataset there, and complete?
#pragma once

#include <functional>
#include <string>

#include "config/config.h"
#include "mpi/communicator.h"
#include "storage/file.h"

namespace dlbench::generation {

// Collective. Passes when dlbench's completeness marker matches this configuration, or, for a
// dataset without marker (written by DLIO or another tool), when every configured file exists.
// Throws Error(kUsage) when the dataset is not there (no folder, no train folder, or none of the
// configured files: "run `dlbench generate ...`") or its generation was interrupted, and
// Error(kIo) naming the first missing file and how many are missing when only some are.
// Returns, on every rank, what to add to a data error met reading the dataset: "" when it was
// generated with this configuration's settings (or not by dlbench), else the settings that differ
// ("dataset.record_length_bytes: 65536 in the dataset, 131072 configured") and the command that
// regenerates it.
std::string RequireDataset(const config::Config& config, storage::Env& env,
                           const mpi::Communicator& comm);

// Runs `read`; an Error(kIo) it throws gets `other_settings` (RequireDataset's) appended.
void SayHowToRegenerate(const std::string& other_settings, const std::function<void()>& read);

}  // namespace dlbench::generation
