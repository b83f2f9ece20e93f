// Reading a sample out of a filtered HDF5 dataset with a bound on what its chunks decode to.
//
// Reading one sample of a filtered dataset decodes every chunk it touches whole. HDF5's deflate
// filter doubles its buffer until the stream ends, and HDF5 does not let a program replace that
// filter (H5Zregister refuses the predefined ids): a chunk of 2 MB holding 1 GiB of zeros made
// dlbench allocate 2 GiB and spend 11 s per sample — then read the sample as good, HDF5 keeping
// the chunk's first bytes; a chunk that inflates to less than its size was read with the rest of
// HDF5's buffer as it was (heap garbage). So dlbench reads the raw chunks of every filtered dataset
// itself (H5Dread_chunk, through the same Env driver, so the bytes are counted as before) and
// undoes its filters in reverse order, each into exactly the size that entered it when written —
// more or less is an Error(kIo) naming the file, dataset and chunk: deflate (inflated with a
// bound), shuffle and fletcher32 (its checksum checked, as HDF5 does), in any order, what
// dlbench, DLIO and h5py's `compression="gzip"`, `shuffle=True`, `fletcher32=True` write. Then it
// copies the sample's part out. Memory per read is one chunk plus its stored bytes, time bounded by
// both. The last chunk read stays decoded, as HDF5's chunk cache keeps it, for the next sample of
// the same chunk.
//
// DatasetChunk() refuses, at open, a dataset with any other filter (szip, whose decoder allocates
// a size stored in the chunk; nbit and scaleoffset, which allocate an element count from the
// file's filter message; plugins; deflate twice), and a filtered chunk larger than both its
// dataset and kMaxFilteredChunkFloor (a chunk of 256 MiB over a dataset of 12 KiB would be
// decoded whole for every sample), and filters on a dataset that is not chunked (never written by
// HDF5; H5Dread segfaulted on one).
//
// Everything here calls HDF5, so under the caller's hdf5::Lock.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "formats/hdf5/hdf5_handles.h"

namespace dlbench::formats::hdf5 {

// A filtered chunk may be as large as its dataset, or this large whatever the dataset (h5py's
// automatic chunks stay under 1 MiB).
inline constexpr std::uint64_t kMaxFilteredChunkFloor = 64ull << 20;

struct ChunkInfo {
  std::vector<hsize_t> dims;          // chunk dims; empty: the dataset is not chunked
  std::uint64_t bytes = 0;            // of one chunk
  bool filtered = false;              // its chunks go through filters
  bool read_directly = false;         // filtered (chunks of a size > 0): read by ChunkReader
  std::vector<H5Z_filter_t> filters;  // the pipeline, in writing order
  std::size_t shuffle_bytes = 0;      // the shuffle filter's element size
};

// The chunk layout and filters of dataset `dset` (named `name` in the file at `path`) with
// elements of `element_bytes`. Throws Error(kIo) naming the file and dataset when its chunks are
// filtered and larger than both `dataset_bytes` and kMaxFilteredChunkFloor, or filtered with
// anything but deflate (once), shuffle and fletcher32 (naming the filter).
ChunkInfo DatasetChunk(const Lock& lock, hid_t dset, std::uint64_t element_bytes,
                       std::uint64_t dataset_bytes, const std::string& name,
                       const std::string& path);

// Reads samples of one dataset whose ChunkInfo says read_directly.
class ChunkReader {
 public:
  // `shape`: the dataset's dims (samples first); `name` and `path` for messages.
  ChunkReader(ChunkInfo info, std::vector<hsize_t> shape, std::uint64_t element_bytes,
              std::string name, std::string path);
  // Copies sample k (the dataset's [k, ...] slab) into `out`, which holds one sample.
  void read(const Lock& lock, hid_t dset, std::int64_t k, std::span<std::byte> out);

 private:
  // Decodes the chunk at `offset` into chunk_, unless it is the one held.
  void load(const Lock& lock, hid_t dset, const std::vector<hsize_t>& offset, std::int64_t k);

  ChunkInfo info_;
  std::vector<hsize_t> shape_;
  std::uint64_t element_bytes_;
  std::string name_, path_;
  // Grown without being zeroed (every open of a file makes a ChunkReader: with read_type
  // on_demand, one per sample).
  struct Buffer {
    std::unique_ptr<unsigned char[]> bytes;
    std::size_t size = 0, capacity = 0;
    void resize(std::size_t n);
    unsigned char* data() { return bytes.get(); }
  };
  Buffer raw_, chunk_, unshuffled_;
  std::vector<hsize_t> held_;  // offset of the chunk in chunk_; empty: none
};

}  // namespace dlbench::formats::hdf5
