// One data file written by every rank together (reference formats.md §9.3): rank r writes the
// bytes of its sample slice (generation_plan.h SliceOfRank) with collective MPI-IO
// (MPI_File_write_at_all), every rank making the same number of calls. Formats whose byte
// offsets follow from the sample index alone can be written this way: indexed binary (+ both
// index files), NPY (rank 0 adds the header) and TFRecord (fixed-size records, CRCs computed per
// record; the DALI index lines' offsets are computed in closed form).
// HDF5 files are handed to parallel HDF5 (shared_hdf5_writer.h).
#pragma once

#include <cstddef>
#include <span>

#include "config/enums.h"
#include "dataset/content.h"
#include "mpi/communicator.h"
#include "util/units.h"
#include "workflow/dataset_files.h"

namespace dlbench::workflow {

bool SupportsSharedWriting(config::Format format);

// Collective over `comm`: every rank calls it with the same `file`. Writes the data file and its
// companions under their partial names (storage::PartialPathFor), syncs them when `fsync`, and
// after every rank closed them rank 0 renames the companions and then the data file into place.
// `buffer` bounds the memory used. Returns the bytes this rank wrote. Throws Error(kIo) naming
// the path, the offset and MPI's message; Error(kUsage) for a format without shared writing.
Bytes WriteSharedFile(const mpi::Communicator& comm, config::Format format, const DatasetFile& file,
                      const dataset::ContentGenerator& content, std::span<std::byte> buffer,
                      bool fsync);

// Exact size of the data file WriteSharedFile writes; Error(kUsage) for HDF5 (its metadata
// size is the library's).
Bytes SharedFileSize(config::Format format, const formats::FileSpec& spec);

// Byte offset of line `k` in a DALI index of records of `record_bytes` each: the lines
// "<k·record_bytes> <record_bytes>\n" of all earlier records.
Bytes DaliIndexOffset(std::uint64_t k, Bytes record_bytes);

}  // namespace dlbench::workflow
