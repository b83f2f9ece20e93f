// Reading one sample of a sample-last array (NPY and NPZ `x`, shape (*sample_dims, n)), whose
// element e of sample k sits at data byte (e·n + k)·itemsize. With n = 1 a sample is one
// contiguous range; with n > 1 it is strided, so the read unit is the whole array, streamed
// through a bounded buffer and gathered — the same bytes DLIO's np.load reads per sample.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

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
  StoredSampleLastArray(Bytes data_offset, std::int64_t samples, Bytes sample_bytes, int itemsize,
                        Bytes transfer_size);
  // Reads sample k into out; returns bytes read. Throws Error(kIo) on a short read.
  Bytes Read(storage::ReadableFile& file, std::int64_t k, std::byte* out);

 private:
  Bytes data_offset_;
  std::int64_t samples_;
  Bytes sample_bytes_;
  int itemsize_;
  std::vector<std::byte> buffer_;  // only for samples > 1
};

}  // namespace dlbench::formats
