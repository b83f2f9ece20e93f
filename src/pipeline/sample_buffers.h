// Scratch memory the reader threads read sample bytes into. It lives for the whole run, not for
// one epoch's reader pool: a fresh buffer per epoch would be faulted in (and, as a std::vector,
// zero-filled) again every epoch — for 64 MiB samples a 64 MiB first touch per thread per epoch
// on the read path. Never zero-filled: readers overwrite what they use. Large buffers are on huge
// pages (storage::AllocateBuffer).
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <vector>

#include "storage/aligned_buffer.h"
#include "util/units.h"

namespace dlbench::pipeline {

// One thread's buffer: grows to the largest sample asked for, never shrinks. kHeadroom writable
// bytes precede the span it hands out, so that a format can read a sample's header there and the
// sample itself straight into the span in one read (FileReadOptions::sample_into).
class SampleBuffer {
 public:
  static constexpr Bytes kHeadroom = 256;  // the npy header dlbench writes takes 128
  std::span<std::byte> get(Bytes need) {
    if (need > size_ || !data_) {
      data_.reset();  // before the new allocation: the two never coexist
      size_ = 0;
      data_.reset(storage::AllocateBuffer(kHeadroom + need, alignof(std::max_align_t)));
      size_ = need;
    }
    return {data_.get() + kHeadroom, need};
  }
  // All the buffer has now (empty before the first get()), without growing it.
  std::span<std::byte> available() {
    return data_ ? std::span<std::byte>(data_.get() + kHeadroom, size_) : std::span<std::byte>();
  }

 private:
  std::unique_ptr<std::byte, storage::FreeBuffer> data_;
  Bytes size_ = 0;
};

// One buffer per reader thread (at least one, for reading on the training thread).
class SampleBuffers {
 public:
  explicit SampleBuffers(int threads)
      : buffers_(static_cast<std::size_t>(threads < 1 ? 1 : threads)) {}
  SampleBuffer& at(std::size_t thread) { return buffers_.at(thread); }
  std::size_t size() const { return buffers_.size(); }

 private:
  std::vector<SampleBuffer> buffers_;
};

}  // namespace dlbench::pipeline
