// Reading one sample of a sample-last array (NPY and NPZ `x`, shape (*sample_dims, n)), whose
// element e of sample k sits at data byte (e·n + k)·itemsize. With n = 1 a sample is one
// contiguous range; with n > 1 it is strided, so the read unit is the whole array, streamed
// through a bounded buffer and gathered — the same bytes DLIO's np.load reads per sample. With
// O_DIRECT the unit is rounded out to whole 4 KiB blocks.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "formats/io/direct_file.h"
#include "storage/file.h"
#include "util/units.h"

namespace dlbench::formats {

// Copies the bytes of sample k that lie in `chunk` (array data bytes starting at
// `chunk_offset`) to their places in `out`.
void GatherSample(std::span<const std::byte> chunk, Bytes chunk_offset, std::int64_t samples,
                  int itemsize, std::int64_t k, std::byte* out);

// An uncompressed sample-last array stored at [data_offset, data_offset + samples·sample_bytes)
// of a file.
class StoredSampleLastArray {
 public:
  // `direct`: samples are read with ReadDirect only (no buffer of our own is allocated).
  StoredSampleLastArray(Bytes data_offset, std::int64_t samples, Bytes sample_bytes, int itemsize,
                        Bytes transfer_size, bool direct = false);
  // Reads sample k into out; returns bytes read. Throws Error(kIo) on a short read.
  Bytes read(storage::ReadableFile& file, std::int64_t k, std::byte* out);
  // The same through O_DIRECT: with n = 1 the blocks covering the sample in one read, else the
  // blocks covering the array in block-aligned pieces of transfer_size (rounded up to 4 KiB), so
  // no block is fetched twice. Returns the bytes storage delivered (whole blocks).
  Bytes read_direct(DirectFile& file, std::int64_t k, std::byte* out);

 private:
  [[noreturn]] void truncated(const std::string& path, Bytes want, Bytes offset, Bytes got) const;

  Bytes data_offset_;
  std::int64_t samples_;
  Bytes sample_bytes_;
  int itemsize_;
  Bytes direct_piece_;             // ReadDirect with samples > 1
  std::vector<std::byte> buffer_;  // Read with samples > 1
};

}  // namespace dlbench::formats
