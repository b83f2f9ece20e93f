// A format's writer of one file that every rank writes together: the
// dataset layout when there are no more files than ranks. Rank r writes its slice of the samples
// (slice_layout.h SharedFileSlice). Two kinds: the formats whose bytes follow from the sample
// index stream their slice in collective MPI-IO writes (sliced_shared_writer.h); HDF5 hands it to
// parallel HDF5 (hdf5_shared_writer.h). Either way every byte goes through the Env
// (Env::open_shared, storage/shared_file.h), so tiers throttle it, fault injection fails it and
// counting sees it. formats::MakeSharedWriter (registry.h) says which formats have one.
//
// How a shared file is published (storage/file.h): it cannot be created for publishing, since
// every rank's MPI-IO opens it by name. So every rank writes it under its partial name
// (storage::PartialPathFor, hidden from readers and found by FindPartialFiles after a crash), and
// once every rank closed it, rank 0 alone renames it into place (PublishSharedParts): one rename
// for the whole file, after the last byte of every rank. This needs storage with shared writers
// and rename (storage::Capabilities); an object store has neither and cannot take this layout.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "formats/format.h"
#include "mpi/communicator.h"
#include "util/units.h"

namespace dlbench::formats {

class SharedWriter {
 public:
  virtual ~SharedWriter() = default;
  // Exact size of the data file, or nullopt when the library decides it (HDF5's metadata).
  virtual std::optional<Bytes> file_size(const FileSpec& spec) const = 0;
  // Collective over `comm`: every rank calls it with the same `spec`, whose paths are the final
  // names. Writes the data file and its companions under their partial names
  // (storage::PartialPathFor), fsyncs them when spec.fsync, and after every rank closed them
  // rank 0 renames the companions and then the data file into place (and fsyncs their folders
  // when spec.fsync). `buffer` (non-empty) bounds the memory used. Returns the bytes this rank
  // wrote through `env` (their sum over ranks is the size of every part). Throws Error(kIo)
  // naming the path and the operation, Error(kUsage) for a spec the format refuses.
  virtual Bytes write(const mpi::Communicator& comm, storage::Env& env, const FileSpec& spec,
                      const dataset::ContentGenerator& content,
                      std::span<std::byte> buffer) const = 0;
};

// The end of every shared write, collective over `comm`: after every rank closed the parts
// (`parts`: final paths, data file first), rank 0 renames each from its partial name into place,
// companions first and the data file last, so that a data file under its final name always has
// its companions; with `fsync`, then fsyncs their folders. Through `env`.
void PublishSharedParts(const mpi::Communicator& comm, storage::Env& env,
                        const std::vector<std::string>& parts, bool fsync);

}  // namespace dlbench::formats
