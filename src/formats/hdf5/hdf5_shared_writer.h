// One HDF5 file written by every rank together with parallel HDF5 (the MPI-IO driver): the
// datasets of formats/hdf5/hdf5_writer.h (records_0..k-1 of shape (n, *sample dims), labels (n,)
// int64 zeros), same types, layout, chunks and gzip, so the file reads back identical to one the
// serial writer makes with the same seed. Rank r writes the rows of its sample slice
// (slice_layout.h SharedFileSlice) in collective H5Dwrite calls of at most one buffer each, every
// rank making the same number of calls. Parallel HDF5 does its MPI-IO itself: an
// storage::MpiIoCapture routes it through the Env while the file is written, so its bytes (metadata
// included) are counted, throttled by tiers and can fail on purpose.
#pragma once

#include "formats/io/shared_writer.h"

namespace dlbench::formats {

class Hdf5SharedWriter final : public SharedWriter {
 public:
  // HDF5 decides its metadata's size.
  std::optional<Bytes> file_size(const FileSpec& /*spec*/) const override { return std::nullopt; }
  // As SharedWriter::write; the bytes returned are those this rank's HDF5 wrote through the Env
  // (rank 0 writes most of the metadata). Error(kUsage) for compression lzf and bad hdf5.*
  // shapes. When a write fails, the file and dataset handles are left open (closing is
  // collective, and the other ranks wait in the write this rank left): the job ends through
  // MPI_Abort.
  Bytes write(const mpi::Communicator& comm, storage::Env& env, const FileSpec& spec,
              const dataset::ContentGenerator& content, std::span<std::byte> buffer) const override;
};

}  // namespace dlbench::formats
