// Who writes what during generation: whole files are dealt
// round-robin to ranks and, inside a rank, round-robin to its generation threads; a file shared
// by all ranks is cut into contiguous sample slices, one per rank. Pure arithmetic, no I/O.
#pragma once

#include <cstdint>
#include <vector>

#include "util/units.h"

namespace dlbench::generation {

// Global file indices (train files first, then eval) written by `rank` of `ranks`:
// rank, rank + ranks, rank + 2·ranks, ... below `total_files`.
std::vector<FileIndex> FilesOfRank(FileIndex total_files, int ranks, int rank);

// The file `thread` of `threads` inside `rank` writes at its `step`-th turn: the rank's files
// are dealt round-robin to its threads, so this is rank + ranks·(thread + threads·step).
// Returns false past the end (no list is built: datasets may have millions of files).
bool FileAt(FileIndex total_files, int ranks, int rank, int threads, int thread, std::uint64_t step,
            FileIndex& file);

// True when the dataset is written as shared files (every rank writes a slice of every file):
// DLIO's rule, more than one rank and no more files than ranks.
bool UsesSharedFiles(FileIndex total_files, int ranks);

}  // namespace dlbench::generation
