#include "formats/numpy/sample_last_array.h"

#include <algorithm>
#include <cstring>

#include "storage/aligned_buffer.h"
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
                                             Bytes sample_bytes, int itemsize, Bytes transfer_size,
                                             bool direct)
    : data_offset_(data_offset),
      samples_(samples),
      sample_bytes_(sample_bytes),
      itemsize_(itemsize),
      direct_piece_(storage::AlignUp(std::max<Bytes>(transfer_size, storage::kDirectAlignment))) {
  if (samples_ > 1 && !direct) {
    // Whole element groups per chunk, so one chunk never splits an element.
    const Bytes group = static_cast<Bytes>(samples_) * static_cast<Bytes>(itemsize_);
    buffer_.resize(std::max<Bytes>(transfer_size / group, 1) * group);
  }
}

void StoredSampleLastArray::truncated(const std::string& path, Bytes want, Bytes offset,
                                      Bytes got) const {
  throw CorruptDataError(path, "array",
                         "truncated: " + std::to_string(want) + " bytes expected at offset " +
                             std::to_string(offset) + ", found " + std::to_string(got));
}

Bytes StoredSampleLastArray::read(storage::ReadableFile& file, std::int64_t k, std::byte* out) {
  if (samples_ == 1) {
    const Bytes got = file.read_at(data_offset_, out, sample_bytes_);
    if (got != sample_bytes_) truncated(file.path(), sample_bytes_, data_offset_, got);
    return got;
  }
  const Bytes total = static_cast<Bytes>(samples_) * sample_bytes_;
  Bytes read = 0;
  for (Bytes pos = 0; pos < total;) {
    const Bytes want = std::min<Bytes>(buffer_.size(), total - pos);
    const Bytes got = file.read_at(data_offset_ + pos, buffer_.data(), want);
    read += got;
    if (got != want) truncated(file.path(), want, data_offset_ + pos, got);
    GatherSample({buffer_.data(), got}, pos, samples_, itemsize_, k, out);
    pos += got;
  }
  return read;
}

Bytes StoredSampleLastArray::read_direct(DirectFile& file, std::int64_t k, std::byte* out) {
  file.discard_staged();
  const Bytes before = file.bytes_read();
  if (samples_ == 1) {
    const std::span<const std::byte> sample = file.view(data_offset_, sample_bytes_);
    if (sample.size() != sample_bytes_) {
      truncated(file.path(), sample_bytes_, data_offset_, sample.size());
    }
    std::memcpy(out, sample.data(), sample.size());
    return file.bytes_read() - before;
  }
  const Bytes end = data_offset_ + static_cast<Bytes>(samples_) * sample_bytes_;
  for (Bytes pos = data_offset_; pos < end;) {
    // Piece boundaries at multiples of direct_piece_ (itself a multiple of the block size).
    const Bytes want = std::min(end, pos - pos % direct_piece_ + direct_piece_) - pos;
    const std::span<const std::byte> piece = file.view(pos, want);
    if (piece.size() != want) truncated(file.path(), want, pos, piece.size());
    GatherSample(piece, pos - data_offset_, samples_, itemsize_, k, out);
    pos += want;
  }
  return file.bytes_read() - before;
}

}  // namespace dlbench::formats
