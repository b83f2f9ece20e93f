// dataset.keep_files: false (DLIO's key): a run that generates the dataset and then trains on it
// (or checkpoints) removes the dataset at the end, as DLIO's finalize() deletes data_folder.
// dlbench removes only what its generation made: the files of the dataset plan (DatasetFiles) whose
// marker (generation_resume.h) says they are complete with this configuration's fingerprint, the
// marker, the plan's folders once empty, and the data folder itself when nothing but its
// `.dlbench-folder` marker is left. A foreign file in the data folder, and the folder holding it,
// survive; a dataset whose marker is missing, incomplete or of other settings is left whole with
// a warning. docs/configuration.md (dataset) and docs/reliability.md (Safety).
#pragma once

#include <cstdint>
#include <vector>

#include "config/config.h"
#include "mpi/communicator.h"
#include "storage/file.h"

namespace dlbench::generation {

// True when a run of `phases`-like flags removes the dataset at its end: keep_files is false and
// the run generated the dataset and also trained or checkpointed (a generation-only run keeps it,
// as DLIO's does). `dlbench run --repeat` removes it once, after its last run.
bool RemovesDatasetAtEnd(const config::Config& config, bool generated,
                         bool trained_or_checkpointed);

// Collective. Removes the generated dataset of `config` as described above: rank 0 removes the
// marker first (a removal cut short leaves no marker calling the dataset complete), the ranks
// remove the data files in turns (file g by rank g mod ranks), then rank 0 the empty folders.
// Returns the number of data files removed (with their companions), meaningful on rank 0; prints
// a note on rank 0 unless `quiet`. Errors are agreed by every rank (exit 3 for an I/O error).
std::uint64_t RemoveGeneratedDataset(const config::Config& config, storage::Env& env, bool quiet,
                                     const mpi::Communicator& comm);

}  // namespace dlbench::generation
