// One HDF5 file written by every rank together with parallel HDF5 (the MPI-IO driver): the
// datasets of formats/hdf5_writer.h (records_0..k-1 of shape (n, *sample dims), labels (n,)
// int64 zeros), same types, layout, chunks and gzip, so the file reads back identical to one the
// serial writer makes with the same seed. Rank r writes the rows of its sample slice
// (generation_plan.h SliceOfRank) in collective H5Dwrite calls of at most one buffer each, every
// rank making the same number of calls.
#pragma once

#include <span>

#include "dataset/content.h"
#include "mpi/communicator.h"
#include "util/units.h"
#include "workflow/dataset_files.h"

namespace dlbench::workflow {

// Collective over `comm`: every rank calls it with the same `file`. Writes the file under its
// partial name (storage::PartialPathFor), syncs it when `fsync`, and after every rank closed it
// rank 0 renames it into place. `buffer` bounds the memory used (one row of a sample is the
// least written at once). Returns the bytes this rank wrote (rank 0 adds HDF5's metadata, so
// the sum over ranks is the file size). Throws Error(kIo) naming the path and HDF5's message,
// Error(kUsage) for compression lzf and bad hdf5.* shapes.
Bytes WriteSharedHdf5(const mpi::Communicator& comm, const DatasetFile& file,
                      const dataset::ContentGenerator& content, std::span<std::byte> buffer,
                      bool fsync);

}  // namespace dlbench::workflow
