// Dataset generation: writes the workload's dataset in parallel across ranks and threads.
// Whole files are dealt round-robin to ranks and to each rank's dataset.generation_threads
// threads; when there are no more files than ranks, every rank writes a slice of every file
// with collective MPI-IO instead (formats/io/shared_writer.h), for the formats that allow it. Files
// appear under their final names only when complete; a rerun keeps complete files, redoes the
// rest and removes partial files of ours (generation_resume.h), never anything else.
#pragma once

#include <cstdint>
#include <filesystem>

#include "config/config.h"
#include "metrics/run_metrics.h"
#include "mpi/communicator.h"
#include "storage/file.h"

namespace dlbench::generation {

// What one rank did. `io.start`/`io.end` are seconds since a origin common to all ranks.
struct RankGeneration {
  metrics::GenerationRank io;
  std::uint64_t files_kept = 0;        // complete files found and kept (rerun)
  std::uint64_t partials_removed = 0;  // partial files of an interrupted run (rank 0)
  bool shared_files = false;           // every rank wrote a slice of every file
};

// Per-thread staging buffer: dataset.generation_buffer_size, capped so that memory stays
// bounded by threads × this, whatever the file sizes.
inline constexpr Bytes kMaxGenerationBuffer = 4 * MiB;
Bytes GenerationBufferBytes(const config::DatasetConfig& dataset);

// Collective. Writes every missing file of the dataset through `env` (shared files go through
// MPI-IO on the POSIX file system) and, after a final barrier, marks the dataset complete.
// Throws Error(kUsage) for an impossible configuration before writing anything, Error(kIo)
// naming the data file when writing fails (no file is then left under a final name partially).
RankGeneration GenerateDataset(const config::Config& config, const mpi::Communicator& comm,
                               storage::Env& env);

}  // namespace dlbench::generation
