#include "formats/sample_last_array.h"

#include <algorithm>
#include <cstring>

#include "util/error.h"

namespace dlbench::formats {

void GatherSample(std::span<const std::byte> chunk, Bytes chunk_offset, std::int64_t samples,
                  int itemsize, std::int64_t k, std::byte* out) {
  if (chunk.empty()) return;
  const Bytes item = static_cast<Bytes>(itemsize);
  const Bytes group = static_cast<Bytes>(samples) * item;  // one element of every sample
  const Bytes chunk_end = chunk_offset + chunk.size();
  for (Bytes g = chunk_offset / group; g * group < chunk_end; ++g) {
    const Bytes lo = g * group + static_cast<Bytes>(k) * item;
    const Bytes from = std::max(lo, chunk_offset);
    const Bytes to = std::min(lo + item, chunk_end);
    if (from >= to) continue;
    std::memcpy(out + g * item + (from - lo), chunk.data() + (from - chunk_offset), to - from);
  }
}

StoredSampleLastArray::StoredSampleLastArray(Bytes data_offset, std::int64_t samples,
                                             Bytes sample_bytes, int itemsize, Bytes transfer_size)
    : data_offset_(data_offset),
      samples_(samples),
      sample_bytes_(sample_bytes),
      itemsize_(itemsize) {
  if (samples_ > 1) {
    // Whole element groups per chunk, so one chunk never splits an element.
    const Bytes group = static_cast<Bytes>(samples_) * static_cast<Bytes>(itemsize_);
    buffer_.resize(std::max<Bytes>(transfer_size / group, 1) * group);
  }
}

Bytes StoredSampleLastArray::Read(storage::ReadableFile& file, std::int64_t k, std::byte* out) {
  if (samples_ == 1) {
    const Bytes got = file.read_at(data_offset_, out, sample_bytes_);
    if (got != sample_bytes_) {
      throw IoError("read", file.path(), 0,
                    "truncated array: " + std::to_string(sample_bytes_) +
                        " bytes expected at offset " + std::to_string(data_offset_) + ", found " +
                        std::to_string(got));
    }
    return got;
  }
  const Bytes total = static_cast<Bytes>(samples_) * sample_bytes_;
  Bytes read = 0;
  for (Bytes pos = 0; pos < total;) {
    const Bytes want = std::min<Bytes>(buffer_.size(), total - pos);
    const Bytes got = file.read_at(data_offset_ + pos, buffer_.data(), want);
    read += got;
    if (got != want) {
      throw IoError("read", file.path(), 0,
                    "truncated array: " + std::to_string(want) + " bytes expected at offset " +
                        std::to_string(data_offset_ + pos) + ", found " + std::to_string(got));
    }
    GatherSample({buffer_.data(), got}, pos, samples_, itemsize_, k, out);
    pos += got;
  }
  return read;
}

}  // namespace dlbench::formats
